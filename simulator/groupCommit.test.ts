import Database from 'better-sqlite3';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, expect, test } from 'vitest';
import { afterCommit, BATCH_CAP, getMeta, inBatch, openDb, setMeta, type DB } from './db.ts';

// The group commit of db.ts (inBatch): a batch stays open while turns of the event loop bring it new
// answers, commits on the first turn that brings none or once it holds BATCH_CAP, and no answer leaves
// before its write is committed. Checked on a real store, with a second connection as the outside reader.

let dir: string;
let db: DB;
let reader: Database.Database;

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'group-commit-'));
  db = openDb(dir);
  reader = new Database(join(dir, 'sandbox.sqlite'), { readonly: true });
});
afterEach(() => {
  reader.close();
  db.close();
  rmSync(dir, { recursive: true, force: true });
});

/** One turn of the event loop: resolves in the check phase after the batch's own immediate of this turn. */
const turn = () => new Promise<void>((r) => setImmediate(r));

const committed = (k: string) => (reader.prepare('SELECT v FROM meta WHERE k = ?').get(k) as { v: string } | undefined)?.v;

/** A write through the batch, like a placement: its answer waits for the commit. */
function order(k: string, sent: string[]): void {
  inBatch(db, () => setMeta(db, k, 'placed'));
  afterCommit(db, () => sent.push(k));
}

test('orders arriving over successive turns share one commit, made on the first turn that brings none', async () => {
  const sent: string[] = [];
  for (const k of ['a', 'b', 'c']) {
    order(k, sent);
    await turn();
    // Still gathering: nothing answered, nothing visible outside, the same transaction open.
    expect(sent).toEqual([]);
    expect(committed('a')).toBeUndefined();
    expect(db.inTransaction).toBe(true);
    expect(getMeta(db, k)).toBe('placed');
  }
  await turn();
  expect(sent).toEqual(['a', 'b', 'c']);
  expect(db.inTransaction).toBe(false);
  expect(['a', 'b', 'c'].map(committed)).toEqual(['placed', 'placed', 'placed']);
});

test('a lone order commits on the next turn: the batch never waits for input', async () => {
  const sent: string[] = [];
  order('lone', sent);
  await turn();
  expect(sent).toEqual([]);
  await turn();
  expect(sent).toEqual(['lone']);
  expect(committed('lone')).toBe('placed');
});

test('a stream that never pauses is committed once the batch holds BATCH_CAP answers', async () => {
  const sent: string[] = [];
  let n = 0;
  // More per turn than one, so that the cap comes before the stream ends.
  while (sent.length === 0 && n < BATCH_CAP * 4) {
    for (let i = 0; i < 3; i++) order(`k${n++}`, sent);
    await turn();
  }
  expect(sent.length).toBeGreaterThanOrEqual(BATCH_CAP);
  expect(sent.length).toBeLessThan(BATCH_CAP + 3);
  expect(committed(sent[sent.length - 1]!)).toBe('placed');
  await turn();
  await turn();
  expect(sent.length).toBe(n);
});
