import { readFileSync } from 'node:fs';
import { openDb } from '../db.ts';

// Run by db.test.ts in a process of its own, so that nothing else moves its resident size: fills the
// store at argv[2] with argv[3] MB of rows, opens it again (an empty page cache), reads every row once,
// and prints how much the resident size grew over that read, in MB. Linux only (/proc).

const rssMb = () => Number(/VmRSS:\s+(\d+) kB/.exec(readFileSync('/proc/self/status', 'utf8'))![1]) / 1024;

const [dir, mb] = [process.argv[2]!, Number(process.argv[3])];
let db = openDb(dir);
// Rows made by SQLite itself, so that the fill leaves no JavaScript garbage behind.
db.exec(`CREATE TABLE filler (x BLOB);
  WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < ${mb * 1000})
  INSERT INTO filler SELECT randomblob(1000) FROM n`);
db.close();
db = openDb(dir);
const read = db.prepare('SELECT sum(length(x)) AS bytes FROM filler');
const before = rssMb();
const { bytes } = read.get() as { bytes: number };
const grew = rssMb() - before;
db.close();
process.stdout.write(`${JSON.stringify({ bytes, grewMb: Math.round(grew * 10) / 10 })}\n`);
