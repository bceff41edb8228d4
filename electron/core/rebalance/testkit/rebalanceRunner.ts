// A stand-in for the core process in the rebalance crash test: it makes a plan's rows an approved batch
// (kept in a file, as the governance store would keep it) and runs it (mode "start"), or reads that batch
// and finishes it (mode "resume"). The test kills it with SIGKILL mid-batch.
// Usage: tsx rebalanceRunner.ts <start|resume> <journal> <credentials.json> <plan.json>
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { ApiClient } from '../../client/client.ts';
import { Journal } from '../../journal/journal.ts';
import { readSandboxCredentials } from '../../profiles/sandbox.ts';
import { testJournalKey } from '../../journal/testkit/key.ts';
import { WriteExecutor } from '../../writes/executor.ts';
import { readBalances } from '../balances.ts';
import { BatchRun, type Approved } from '../batch.ts';
import type { Plan } from '../planner.ts';
import { preApproved } from './preApproved.ts';

const [mode, journalPath, credentialsPath, planPath] = process.argv.slice(2);
if (!mode || !journalPath || !credentialsPath || !planPath) {
  process.stderr.write('usage: rebalanceRunner <start|resume> <journal> <credentials.json> <plan.json>\n');
  process.exit(2);
}
const creds = readSandboxCredentials(credentialsPath);
const client = new ApiClient({ baseUrl: creds.base_url, credentials: creds.main, timeoutMs: 2000 });
const journal = Journal.open(journalPath, { key: testJournalKey });
const executor = new WriteExecutor({ journal, client, settleMs: 500, lookupIntervalMs: 100 });
const keepAlive = setInterval(() => undefined, 1000);
const batchPath = `${planPath}.approved.json`;

if (mode === 'start' && !existsSync(batchPath))
  writeFileSync(batchPath, JSON.stringify(preApproved(JSON.parse(readFileSync(planPath, 'utf8')) as Plan, 'crash')));
const approved = JSON.parse(readFileSync(batchPath, 'utf8')) as Approved;
const out = await new BatchRun({
  journal,
  sender: executor,
  approved,
  currency: 'USDT',
  readBalances: (a, c) => readBalances(client, a, c),
  concurrency: 4,
  onProgress: (rows) => process.stdout.write(`PROGRESS ${rows.filter((r) => r.state === 'done').length}\n`),
}).run();
process.stdout.write(`RESULT ${JSON.stringify({ states: out.rows.map((r) => r.state), paused: out.paused })}\n`);
await executor.stop();
clearInterval(keepAlive);
journal.close();
process.exit(0);
