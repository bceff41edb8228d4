// A stand-in for the core process in the small-balance crash test. "start": the first operator drafts the
// conversion of the given accounts' dust as one batch and signs it; the dispatcher sends it. "resume": the
// same data folder opened again, its journal finished. Either prints DONE with each row's outcome once
// every row has ended. The test kills "start" with SIGKILL while conversions are out.
// Usage: tsx dustRunner.ts <start|resume> <data dir> <sandbox credentials.json> <currency> <uid,uid,...>
import { openDustDesk } from './dustDesk.ts';

const [mode, dataDir, credentialsPath, currency, uids] = process.argv.slice(2);
if (!mode || !dataDir || !credentialsPath || !currency || !uids) {
  process.stderr.write('usage: dustRunner <start|resume> <data dir> <credentials.json> <currency> <uid,uid,...>\n');
  process.exit(2);
}
const PASS = 'dust runner passphrase';
const keepAlive = setInterval(() => undefined, 1000);
const desk = openDustDesk(dataDir, credentialsPath);
let ref: string;
if (mode === 'start') {
  const operator = await desk.approvals.createFirstOperator('Dust operator', PASS, undefined);
  const rows = uids.split(',').map((account) => ({ account, currency }));
  const q = await desk.service().convert(rows);
  await desk.approvals.sign(q.ticket, operator, PASS);
  process.stdout.write(`SIGNED ${q.ref}\n`);
  ref = q.ref;
} else {
  const batches = await desk.approvals.batchesOf('small_balance');
  ref = batches.at(-1)!.ref;
  void desk.approvals.dispatch();
}
for (;;) {
  const p = await desk.service().progress(ref);
  if (p.rows.every((r) => r.outcome !== 'pending')) {
    process.stdout.write(`DONE ${JSON.stringify(p.rows.map((r) => [r.account, r.outcome, r.exchange_id]))}\n`);
    break;
  }
  await new Promise((r) => setTimeout(r, 100));
}
clearInterval(keepAlive);
await desk.close();
process.exit(0);
