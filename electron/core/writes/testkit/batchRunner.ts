// A stand-in for the core process in the crash test: it journals a batch and sends it (mode "start"), or
// picks up whatever the journal left unfinished (mode "resume"). The test kills it with SIGKILL mid-batch.
// Usage: tsx batchRunner.ts <start|resume> <journal> <base_url> <count> <settle_ms> [sandbox credentials.json]
import { ApiClient } from '../../client/client.ts';
import { readSandboxCredentials } from '../../profiles/sandbox.ts';
import { Journal } from '../../journal/journal.ts';
import { WriteExecutor } from '../executor.ts';
import { journalKeyOf } from './batchRunner.key.ts';

const [mode, journalPath, baseUrl, countArg, settleArg, credentialsPath] = process.argv.slice(2);
if (!mode || !journalPath || !baseUrl || !countArg || !settleArg) {
  process.stderr.write('usage: batchRunner <start|resume> <journal> <base_url> <count> <settle_ms>\n');
  process.exit(2);
}
const count = Number(countArg);

// Against the Sandbox: its main key, and its first sub-account as the other side of the transfers.
const sandbox = credentialsPath ? readSandboxCredentials(credentialsPath) : null;
const subUid = (i: number): string => (sandbox ? sandbox.sub_accounts[0]!.uid : String(200 + (i % 5)));

const journal = Journal.open(journalPath, { key: journalKeyOf(journalPath) });
const client = new ApiClient({
  baseUrl,
  credentials: sandbox?.main ?? { key: 'test-key', secret: 'test-secret' },
  limitsOff: true,
  timeoutMs: sandbox ? 1000 : 300,
  maxReadAttempts: 2,
});
const executor = new WriteExecutor({ journal, client, settleMs: Number(settleArg), lookupIntervalMs: 100 });

// The client's timers are unref'd (a rate-limit wake-up must not keep a finished process alive); this
// process has nothing else, so hold it open while the batch is being worked.
const keepAlive = setInterval(() => undefined, 1000);

if (journal.recovered) process.stdout.write(`TORN ${JSON.stringify(journal.recovered)}\n`);

/** An outside TRX address as the Sandbox's own contract tests use. */
const SANDBOX_TRX_ADDRESS = 'TXkz7nF8cq3PWy7FHLgLFGfBpzyBK5ZNvA';

if (mode === 'start') {
  const ids: string[] = [];
  for (let i = 0; i < count; i++) {
    const address = sandbox ? SANDBOX_TRX_ADDRESS : `Tcrash${i}`;
    ids.push(
      executor.prepare(
        { kind: 'withdrawal', input: { currency: 'USDT', amount: `${(i % 9) + 10}.25`, address, chain: 'TRX' } },
        `batch ${i}`,
      ).id,
    );
    ids.push(
      executor.prepare(
        { kind: 'main_sub_transfer', input: { sub_account: subUid(i), currency: 'USDT', amount: `${(i % 9) + 1}`, direction: 'to' } },
        `batch ${i}`,
      ).id,
    );
  }
  process.stdout.write('PREPARED\n');
  await Promise.all(ids.map((id) => executor.approve(id, 'batch')));
} else {
  await executor.resume();
}
const states: Record<string, number> = {};
for (const v of journal.intents()) states[v.state] = (states[v.state] ?? 0) + 1;
process.stdout.write(`DONE ${JSON.stringify(states)}\n`);
clearInterval(keepAlive);
journal.close();
process.exit(0);
