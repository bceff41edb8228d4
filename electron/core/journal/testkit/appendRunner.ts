// A process that appends to a journal and kills itself with SIGKILL at one step of one append, for the
// crash tests. Usage: tsx appendRunner.ts <journal> <count> <kill at entry> <step>
import { fileJournalKey } from '../mac.ts';
import { Journal, type AppendStep } from '../journal.ts';

const [path, countArg, killAtArg, step] = process.argv.slice(2);
if (!path || !countArg || !killAtArg || !step) {
  process.stderr.write('usage: appendRunner <journal> <count> <kill at entry> <step>\n');
  process.exit(2);
}
const killAt = Number(killAtArg);
const journal = Journal.open(path, {
  key: fileJournalKey(`${path}.key`),
  onAppendStep: (s: AppendStep) => {
    if (s === step && journal.length + 1 === killAt) process.kill(process.pid, 'SIGKILL');
  },
});
const start = journal.length;
for (let i = start + 1; i <= start + Number(countArg); i++) {
  const id = `w${i}`;
  journal.append({
    type: 'intent',
    intent: id,
    kind: 'withdrawal',
    client_id: id,
    body: { withdraw_order_id: id, currency: 'USDT', amount: '1', address: 'Taddr', chain: 'TRX' },
  });
  process.stdout.write(`APPENDED ${journal.length}\n`);
}
journal.close();
