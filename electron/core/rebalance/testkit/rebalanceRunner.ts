// A stand-in for the core process in the rebalance crash test: it journals a plan as a batch and runs it
// (mode "start"), or finds the batch in the journal and finishes it (mode "resume"). The test kills it
// with SIGKILL mid-batch. Usage: tsx rebalanceRunner.ts <start|resume> <journal> <credentials.json> <plan.json>
import { readFileSync } from 'node:fs';
import { ApiClient } from '../../client/client.ts';
import { Journal } from '../../journal/journal.ts';
import { testJournalKey } from '../../journal/testkit/key.ts';
import { WriteExecutor } from '../../writes/executor.ts';
import { readSpotBalance } from '../balances.ts';
import { BatchRun, prepareBatch } from '../batch.ts';
import type { Plan } from '../planner.ts';

const [mode, journalPath, credentialsPath, planPath] = process.argv.slice(2);
if (!mode || !journalPath || !credentialsPath || !planPath) {
  process.stderr.write('usage: rebalanceRunner <start|resume> <journal> <credentials.json> <plan.json>\n');
  process.exit(2);
}
const creds = JSON.parse(readFileSync(credentialsPath, 'utf8')) as { base_url: string; main: { key: string; secret: string } };
const client = new ApiClient({ baseUrl: creds.base_url, credentials: creds.main, timeoutMs: 2000 });
const journal = Journal.open(journalPath, { key: testJournalKey });
const executor = new WriteExecutor({ journal, client, settleMs: 500, lookupIntervalMs: 100 });
const keepAlive = setInterval(() => undefined, 1000);

if (mode === 'start') prepareBatch(executor, JSON.parse(readFileSync(planPath, 'utf8')) as Plan, 'crash');
const out = await new BatchRun({
  journal, executor, readBalance: (a, c) => readSpotBalance(client, a, c), concurrency: 4,
  onProgress: (rows) => process.stdout.write(`PROGRESS ${rows.filter((r) => r.state === 'done').length}\n`),
}, 'crash').run('operator');
process.stdout.write(`RESULT ${JSON.stringify({ states: out.rows.map((r) => r.state), paused: out.paused })}\n`);
await executor.stop();
clearInterval(keepAlive);
journal.close();
process.exit(0);
