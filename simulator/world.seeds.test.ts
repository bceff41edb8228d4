import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { amountProblem } from '../shared/money.ts';
import { openDb } from './db.ts';
import { CLIENT_ORDER_ID_RE } from './ledger/transfers.ts';
import { WITHDRAW_ORDER_ID_RE } from './routes/withdrawals.ts';
import { seedWorld } from './world.ts';

// A seeded world holds only what the Sandbox itself would accept through its API: a client that
// checks records against the spec must not find a record the Sandbox's own POST would refuse.

describe.each(['demo', 'bench'] as const)('the %s world', (world) => {
  it('holds only client ids and amounts that POST /withdrawals and the transfer endpoints accept', () => {
    const dir = mkdtempSync(join(tmpdir(), `sandbox-seeds-${world}-`));
    const db = openDb(dir);
    try {
      seedWorld(db, world, Date.now() / 1000);
      const withdrawals = db.prepare('SELECT withdraw_order_id, amount FROM withdrawals').all() as Array<{
        withdraw_order_id: string;
        amount: string;
      }>;
      expect(withdrawals.length).toBeGreaterThan(0);
      const badIds = withdrawals.map((w) => w.withdraw_order_id).filter((id) => id !== '' && !WITHDRAW_ORDER_ID_RE.test(id));
      expect(badIds).toEqual([]);
      expect(withdrawals.filter((w) => amountProblem(w.amount) !== null).map((w) => w.amount)).toEqual([]);
      const transfers = db.prepare("SELECT client_order_id, amount FROM transfers WHERE client_order_id != ''").all() as Array<{
        client_order_id: string;
        amount: string;
      }>;
      expect(transfers.length).toBeGreaterThan(0);
      expect(transfers.map((t) => t.client_order_id).filter((id) => !CLIENT_ORDER_ID_RE.test(id))).toEqual([]);
      expect(transfers.filter((t) => amountProblem(t.amount) !== null).map((t) => t.amount)).toEqual([]);
    } finally {
      db.close();
      rmSync(dir, { recursive: true, force: true });
    }
  }, 120_000);
});

describe('the bench world', () => {
  it('records its withdrawals and deposits oldest first, so that their ids grow with time as an exchange’s do', () => {
    const dir = mkdtempSync(join(tmpdir(), 'sandbox-seeds-order-'));
    const db = openDb(dir);
    try {
      seedWorld(db, 'bench', Date.now() / 1000);
      for (const table of ['withdrawals', 'deposits']) {
        const rows = db.prepare(`SELECT COUNT(*) AS n FROM ${table}`).get() as { n: number };
        expect(rows.n).toBeGreaterThan(10_000);
        // A record whose next id is older: a 30-day page would then read rows scattered over the whole table.
        const outOfOrder = db
          .prepare(
            `SELECT COUNT(*) AS n FROM ${table} a JOIN ${table} b ON b.seq = a.seq + 1 AND b.uid = a.uid WHERE b.timestamp < a.timestamp`,
          )
          .get() as { n: number };
        expect(outOfOrder.n, table).toBe(0);
      }
    } finally {
      db.close();
      rmSync(dir, { recursive: true, force: true });
    }
  }, 120_000);
});
