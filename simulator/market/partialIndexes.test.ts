import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openDb } from '../db.ts';
import { CUSTOM_ID_LOOKUP } from '../routes/orders.ts';
import { WINDOW_ROWS } from './window24h.ts';

// Placements write only the index entries their reads need: custom ids and takers' rows are indexed,
// the default text and makers' rows are not; the reads must still find their partial index.

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'sandbox-indexes-'));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

const plan = (db: ReturnType<typeof openDb>, sql: string, args: unknown[]) =>
  (db.prepare(`EXPLAIN QUERY PLAN ${sql}`).all(...args) as Array<{ detail: string }>).map((r) => r.detail).join('; ');

describe('the spot market reads its partial indexes', () => {
  it('finds an order by custom id, and a pair window of takers, through them', () => {
    const db = openDb(dir);
    expect(plan(db, CUSTOM_ID_LOOKUP, ['u', 't-x', 0])).toContain('USING INDEX spot_orders_custom_text');
    expect(plan(db, WINDOW_ROWS, ['BTC_USDT', 0, 1])).toContain('USING INDEX spot_fills_taker_ts');
    db.close();
  });

  it('drops the full indexes of a store an older Sandbox made', () => {
    let db = openDb(dir);
    db.exec('CREATE INDEX spot_orders_text ON spot_orders(uid, text, id); CREATE INDEX spot_fills_pair_ts ON spot_fills(pair, ts_ms);');
    db.close();
    db = openDb(dir);
    const names = (db.prepare("SELECT name FROM sqlite_master WHERE type = 'index'").all() as Array<{ name: string }>).map((r) => r.name);
    expect(names).not.toContain('spot_orders_text');
    expect(names).not.toContain('spot_fills_pair_ts');
    db.close();
  });
});
