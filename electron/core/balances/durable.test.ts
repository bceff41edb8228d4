import Database from 'better-sqlite3';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { BalanceStore } from './store.ts';
import { cacheDurability, durably } from './durable.ts';

const SYNC = { NORMAL: 1, FULL: 2 };
const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

function fileDb(): Database.Database {
  const dir = mkdtempSync(join(tmpdir(), 'durable-'));
  dirs.push(dir);
  const db = new Database(join(dir, 'store.sqlite'));
  cacheDurability(db);
  db.exec('CREATE TABLE t (v TEXT NOT NULL)');
  return db;
}

const mode = (db: Database.Database) => db.pragma('synchronous', { simple: true });

describe('the balances store on disk', () => {
  it('commits its cache writes without waiting for the disk, in WAL mode', () => {
    const db = fileDb();
    expect(db.pragma('journal_mode', { simple: true })).toBe('wal');
    expect(mode(db)).toBe(SYNC.NORMAL);
  });

  it("writes an operator's change to disk before it returns, then goes back to NORMAL", () => {
    const db = fileDb();
    const seen = durably(db, () => {
      db.prepare("INSERT INTO t VALUES ('floor')").run();
      return mode(db);
    });
    expect(seen).toBe(SYNC.FULL);
    expect(mode(db)).toBe(SYNC.NORMAL);
    expect(db.prepare('SELECT v FROM t').pluck().all()).toEqual(['floor']);
  });

  it('keeps nothing of a write that fails, and still goes back to NORMAL', () => {
    const db = fileDb();
    expect(() =>
      durably(db, () => {
        db.prepare("INSERT INTO t VALUES ('half')").run();
        db.prepare('INSERT INTO t VALUES (NULL)').run();
      }),
    ).toThrow(/NOT NULL/);
    expect(db.prepare('SELECT COUNT(*) FROM t').pluck().get()).toBe(0);
    expect(mode(db)).toBe(SYNC.NORMAL);
  });

  it("keeps the operator's settings, floors and thresholds across a reopen", () => {
    const dir = mkdtempSync(join(tmpdir(), 'durable-'));
    dirs.push(dir);
    const path = join(dir, 'balances.sqlite');
    const first = new BalanceStore(path);
    first.saveSettings({ auto_refresh_seconds: 120, default_risk_threshold: '1.5' });
    first.setFloor('1001', 'USDT', '250');
    first.setThreshold('1001', '1.4');
    first.addSnapshot(1_000, 'USDT', '12.5');
    first.close();
    const again = new BalanceStore(path);
    expect(again.settings()).toEqual({ auto_refresh_seconds: 120, default_risk_threshold: '1.5' });
    expect(again.floors('1001')).toEqual([{ uid: '1001', currency: 'USDT', floor: '250' }]);
    expect(again.thresholds().get('1001')).toBe('1.4');
    expect(again.snapshots('USDT', 0, 10)).toEqual([expect.objectContaining({ at: 1_000, amount: '12.5' })]);
    again.close();
  });
});
