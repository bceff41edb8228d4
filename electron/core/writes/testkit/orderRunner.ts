// A stand-in for the core process in the spot-order crash tests, over a Sandbox with the main key. The
// test kills it with SIGKILL at the moment a mode stops at, then starts it again in mode "resume".
// Usage: tsx orderRunner.ts <mode> <journal> <sandbox credentials.json> <price> <settle_ms>
//   answer-lost:  the order goes out and lands; the process stops before the executor sees the answer.
//   not-sent:     the "sent" record is journaled; the process stops before the request leaves.
//   approved:     the order is approved while the desk cannot sign (nothing sent); the process stops.
//   resume:       drives whatever the journal left unfinished, then prints DONE <intent view>.
import { ApiClient } from '../../client/client.ts';
import { Journal } from '../../journal/journal.ts';
import { readSandboxCredentials } from '../../profiles/sandbox.ts';
import { WriteExecutor } from '../executor.ts';
import type { WriteClient } from '../lookups.ts';
import { journalKeyOf } from './batchRunner.key.ts';

const [mode, journalPath, credentialsPath, price, settleArg] = process.argv.slice(2);
if (!mode || !journalPath || !credentialsPath || !price || !settleArg) {
  process.stderr.write('usage: orderRunner <answer-lost|not-sent|approved|resume> <journal> <credentials.json> <price> <settle_ms>\n');
  process.exit(2);
}
const creds = readSandboxCredentials(credentialsPath);
const journal = Journal.open(journalPath, { key: journalKeyOf(journalPath) });
const real = new ApiClient({ baseUrl: creds.base_url, credentials: creds.main, limitsOff: true, timeoutMs: 5000, maxReadAttempts: 2 });
// The client's timers are unref'd; hold the process open until the test kills it or the work ends.
const keepAlive = setInterval(() => undefined, 1000);
const say = (line: string): void => void process.stdout.write(`${line}\n`);
const never = new Promise<never>(() => undefined);

/** The real client, except that the order's POST stops this process's view of it where the mode says. */
const client: WriteClient = {
  async request(req, schema) {
    if (req.method !== 'POST' || req.path !== '/spot/orders') return real.request(req, schema);
    if (mode === 'not-sent') {
      say('SENT_JOURNALED');
      return never;
    }
    if (mode === 'answer-lost') {
      await real.request(req, schema);
      say('ANSWER_HELD');
      return never;
    }
    return real.request(req, schema);
  },
};

const executor = new WriteExecutor({
  journal,
  client,
  settleMs: Number(settleArg),
  lookupIntervalMs: 100,
  blocked: () => (mode === 'approved' ? 'the desk is locked' : null),
});

if (mode === 'resume') {
  const [v] = await executor.resume();
  say(`DONE ${JSON.stringify(v ?? null)}`);
  clearInterval(keepAlive);
  journal.close();
  process.exit(0);
}
const v = executor.prepare({
  kind: 'spot_order',
  input: { currency_pair: 'BTC_USDT', side: 'buy', type: 'limit', account: 'spot', amount: '0.01', price, time_in_force: 'gtc' },
});
say(`PREPARED ${v.client_id}`);
await executor.approve(v.id, 'crash test');
if (mode === 'approved') say('APPROVED');
