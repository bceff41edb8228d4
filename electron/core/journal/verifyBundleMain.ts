import { readFileSync } from 'node:fs';
import { verifyBundle } from './bundle.ts';

// `npm run verify-journal -- <bundle.json>`: checks an exported journal bundle without the desk.
// Exit 0 when every journal in it checks, 1 when one does not, 2 on usage.

const file = process.argv[2];
if (!file) {
  console.error('usage: npm run verify-journal -- <bundle.json>');
  process.exit(2);
}
const r = verifyBundle(readFileSync(file, 'utf8'));
for (const j of r.journals) {
  const where = j.entry !== null ? `entry ${j.entry}: ` : '';
  console.log(
    `${j.ok ? 'OK  ' : 'FAIL'} ${j.journal} journal ${j.id}: ${j.entries} entries, audit key ${j.fingerprint}${j.ok ? '' : ` - ${where}${j.reason}`}`,
  );
}
process.exit(r.ok ? 0 : 1);
