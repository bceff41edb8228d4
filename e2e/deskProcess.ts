// The desk as its own process for tests that kill it for real (SIGKILL) and start it again over the same
// data folder: the core over the Sandbox profile, the web host and the confirmation host, as `npm start`
// serves them, with a cooling-off of 0 so that a signed change is in force at once.
// Usage: tsx e2e/deskProcess.ts <home> <sandbox credentials.json>; prints one line "DESK <json>".
import { join } from 'node:path';
import { openDesk } from '../electron/core/desk.ts';
import { startConfirmHost } from '../electron/host/confirm-web.ts';
import { startWebHost } from '../electron/host/web.ts';

const [home, credentials] = process.argv.slice(2);
if (!home || !credentials) {
  process.stderr.write('usage: deskProcess <home> <credentials.json>\n');
  process.exit(2);
}
const core = openDesk({ home, sandboxCredentialsPath: credentials, coolingOffMs: 0, log: (l) => process.stderr.write(`${l}\n`) });
const dist = join(import.meta.dirname, '..', 'dist', 'renderer');
const host = await startWebHost({ core, staticDir: dist });
const confirm = await startConfirmHost({ core, staticDir: dist });
process.stdout.write(`DESK ${JSON.stringify({ origin: host.origin, token: host.token, confirm: confirm.url })}\n`);
process.on('SIGTERM', () => {
  void (async () => {
    await host.close();
    await confirm.close();
    await core.close();
    process.exit(0);
  })();
});
