// A stand-in for the core process in the incident crash test: it makes an incident sequence's rows an
// approved batch (kept in a file, as the governance store would keep it) and runs it (mode "start"), or
// reads that batch and finishes it (mode "resume"). The test kills it with SIGKILL mid-sequence.
// Usage: tsx incidentRunner.ts <start|resume> <journal> <credentials.json> <sequence.json>
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { ApiClient } from '../../client/client.ts';
import { Journal } from '../../journal/journal.ts';
import { testJournalKey } from '../../journal/testkit/key.ts';
import { readSandboxCredentials } from '../../profiles/sandbox.ts';
import type { Approved } from '../../rebalance/batch.ts';
import { WriteExecutor } from '../../writes/executor.ts';
import { newOrderId } from '../../writes/ids.ts';
import { buildBody, KINDS, signerOf } from '../../writes/inputs.ts';
import { IncidentRunner } from '../run.ts';
import { incidentWrites, type IncidentFacts } from '../steps.ts';

const [mode, journalPath, credentialsPath, sequencePath] = process.argv.slice(2);
if (!mode || !journalPath || !credentialsPath || !sequencePath) {
  process.stderr.write('usage: incidentRunner <start|resume> <journal> <credentials.json> <sequence.json>\n');
  process.exit(2);
}
const creds = readSandboxCredentials(credentialsPath);
const input = JSON.parse(readFileSync(sequencePath, 'utf8')) as { facts: IncidentFacts; sub: { key: string; secret: string } };
const client = new ApiClient({ baseUrl: creds.base_url, credentials: creds.main, timeoutMs: 2000 });
const sub = new ApiClient({ baseUrl: creds.base_url, credentials: input.sub, timeoutMs: 2000 });
const journal = Journal.open(journalPath, { key: testJournalKey });
const executor = new WriteExecutor({ journal, client, subClient: () => sub, settleMs: 500, lookupIntervalMs: 100 });
const keepAlive = setInterval(() => undefined, 1000);
const batchPath = `${sequencePath}.approved.json`;

if (mode === 'start' && !existsSync(batchPath)) {
  const rows = incidentWrites(input.facts).map(({ write, note }) => {
    const ref = newOrderId();
    const signer = signerOf(write);
    return { ref, kind: write.kind, body: buildBody(write, KINDS[write.kind].idField ? ref : null), note, ...(signer ? { signer } : {}) };
  });
  const approved: Approved = { rows, signatures: [], by: 'test', approved_at: Date.now() };
  writeFileSync(batchPath, JSON.stringify(approved));
}
const approved = JSON.parse(readFileSync(batchPath, 'utf8')) as Approved;
const runner = new IncidentRunner({
  journal,
  sender: executor,
  approved,
  onProgress: () => process.stdout.write(`PROGRESS ${runner.steps().filter((s) => s.state === 'done').length}\n`),
});
const held = await runner.run();
process.stdout.write(`RESULT ${JSON.stringify({ held, steps: runner.steps().map((s) => s.state) })}\n`);
await executor.stop();
clearInterval(keepAlive);
journal.close();
process.exit(0);
