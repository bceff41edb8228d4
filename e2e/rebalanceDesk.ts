// The desk as its own process for the rebalance e2e test (the web host and the confirmation host over a
// core with a data folder, on a Sandbox the test runs), so that the test can SIGKILL it for real. The kill
// points are this script's, not the desk's: it wraps the process's fetch (which the desk's clients take
// at construction) and kills itself at the Nth transfer request, right before it leaves
// (REBALANCE_KILL=before:N) or right after its answer arrived and before the desk sees it (after:N).
// Usage: tsx e2e/rebalanceDesk.ts <home> <sandbox credentials.json>; prints one line "DESK <json>".
import { join } from 'node:path';
import { openDesk } from '../electron/core/desk.ts';
import { startConfirmHost } from '../electron/host/confirm-web.ts';
import { startWebHost } from '../electron/host/web.ts';

const [home, credentials] = process.argv.slice(2);
if (!home || !credentials) {
  process.stderr.write('usage: rebalanceDesk <home> <credentials.json>\n');
  process.exit(2);
}
const TRANSFERS = ['/wallet/sub_account_transfers', '/wallet/sub_account_to_sub_account', '/wallet/transfers'];
const kill = /^(before|after):(\d+)$/.exec(process.env.REBALANCE_KILL ?? '');
let sent = 0;
const realFetch = globalThis.fetch;
globalThis.fetch = async (input, init) => {
  const url = typeof input === 'string' ? input : input instanceof URL ? input.href : input.url;
  const isTransfer = (init?.method ?? 'GET') === 'POST' && TRANSFERS.some((p) => new URL(url).pathname.endsWith(p));
  const n = isTransfer ? ++sent : 0;
  if (kill && n === Number(kill[2]) && kill[1] === 'before') process.kill(process.pid, 'SIGKILL');
  const res = await realFetch(input, init);
  if (kill && n === Number(kill[2]) && kill[1] === 'after') {
    await res.clone().text(); // the exchange has answered in full
    process.kill(process.pid, 'SIGKILL');
  }
  return res;
};

const core = openDesk({ home, sandboxCredentialsPath: credentials, coolingOffMs: 0, log: (l) => process.stderr.write(`${l}\n`) });
// The shortest settle time the desk allows (5 s, not 30): a restart that must prove an unclear transfer
// absent before it resends waits that long, and the test proves the same thing sooner.
const settled = await core.invoke('settingsSave', { idle_lock_minutes: 15, settle_seconds: 5 });
if (!settled.ok) throw new Error(`settingsSave: ${JSON.stringify(settled)}`);
const dist = join(import.meta.dirname, '..', 'dist', 'renderer');
const host = await startWebHost({ core, staticDir: dist });
const confirm = await startConfirmHost({ core, staticDir: dist });
process.stdout.write(
  `DESK ${JSON.stringify({ url: host.url, origin: host.origin, token: host.token, confirm: confirm.url, confirm_origin: confirm.origin })}\n`,
);
const stop = async () => {
  await host.close();
  await confirm.close();
  await core.close();
  process.exit(0);
};
process.on('SIGTERM', () => void stop());
