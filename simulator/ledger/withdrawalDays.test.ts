import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import { Dec } from '../../shared/money.ts';
import { openDb, type DB } from '../db.ts';
import { ApiError } from '../errors.ts';
import { resetWorld, seedWorld } from '../world.ts';
import { cancelWithdrawal, createWithdrawal, enterStatus, usedToday } from './withdrawals.ts';

// The daily limit's kept total (withdrawal_days) must always equal the sum of the day's withdrawals
// that were not returned, whatever happened since it was first read: withdrawals made and refused,
// cancelled, rejected, a day that ends, a store whose totals were never kept (one from before them),
// a reset of the world.

const dirs: string[] = [];
afterAll(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

const GT = { chain: 'GTEVM', address: '0x2222222222222222222222222222222222222222' };

/** The day's sum straight from the rows, with decimal.js: what the kept total stands for. */
function truth(db: DB, uid: string, nowSec: number): string {
  const day = Math.floor(nowSec / 86400) * 86400;
  const rows = db
    .prepare(
      "SELECT amount FROM withdrawals WHERE uid = ? AND currency = 'GT' AND timestamp >= ? AND timestamp < ? AND status NOT IN ('CANCEL', 'REJECT')",
    )
    .pluck()
    .all(uid, day, day + 86400) as string[];
  return rows.reduce((s, a) => s.plus(a), new Dec(0)).toFixed();
}

type Op =
  | { kind: 'withdraw'; amount: string }
  | { kind: 'cancel' | 'reject'; pick: number }
  | { kind: 'advance'; hours: number }
  | { kind: 'forget' }
  | { kind: 'reset' };

const amount = fc
  .tuple(fc.integer({ min: 1, max: 9000 }), fc.integer({ min: 0, max: 99_999_999 }))
  .map(([w, f]) => `${w}.${String(f).padStart(8, '0')}`.replace(/\.?0+$/, ''));
const op: fc.Arbitrary<Op> = fc.oneof(
  { weight: 5, arbitrary: amount.map((a) => ({ kind: 'withdraw' as const, amount: a })) },
  { weight: 2, arbitrary: fc.nat().map((pick) => ({ kind: 'cancel' as const, pick })) },
  { weight: 2, arbitrary: fc.nat().map((pick) => ({ kind: 'reject' as const, pick })) },
  { weight: 1, arbitrary: fc.integer({ min: 1, max: 30 }).map((hours) => ({ kind: 'advance' as const, hours })) },
  { weight: 1, arbitrary: fc.constant({ kind: 'forget' as const }) },
  { weight: 1, arbitrary: fc.constant({ kind: 'reset' as const }) },
);

describe('the daily limit kept per day', () => {
  it('equals the sum of the day’s withdrawals not returned, after any sequence of changes', () => {
    fc.assert(
      fc.property(fc.array(op, { minLength: 1, maxLength: 40 }), (ops) => {
        const dir = mkdtempSync(join(tmpdir(), 'withdrawal-days-'));
        dirs.push(dir);
        const db = openDb(dir);
        try {
          let now = 1_790_000_000 + 86400 - 3 * 3600;
          const uid = seedWorld(db, 'demo', now).main.uid;
          const fund = () =>
            db
              .prepare(
                "INSERT OR REPLACE INTO balances (uid, account_type, sub_key, currency, available) VALUES (?, 'spot', '', 'GT', '1000000')",
              )
              .run(uid);
          fund();
          for (const o of ops) {
            const live = () =>
              db
                .prepare("SELECT seq FROM withdrawals WHERE uid = ? AND status IN ('REQUEST', 'REVIEW', 'MANUAL')")
                .pluck()
                .all(uid) as number[];
            try {
              if (o.kind === 'withdraw') {
                createWithdrawal(
                  db,
                  { uid, currency: 'GT', ...GT, memo: '', amount: o.amount, withdraw_order_id: '', asset_class: '' },
                  now,
                  1,
                  false,
                );
              } else if (o.kind === 'cancel' || o.kind === 'reject') {
                const seqs = live();
                if (seqs.length > 0) {
                  const seq = seqs[o.pick % seqs.length]!;
                  if (o.kind === 'reject') enterStatus(db, seq, 'REJECT', now, 1);
                  else enterStatus(db, Number(cancelWithdrawal(db, uid, `w${seq}`, now, 1).id.slice(1)), 'CANCEL', now, 1);
                }
              } else if (o.kind === 'advance') now += o.hours * 3600;
              else if (o.kind === 'forget') db.prepare('DELETE FROM withdrawal_days').run();
              else {
                resetWorld(db, now);
                fund();
              }
            } catch (e) {
              // Refusals (over the daily limit, say) change nothing; anything else is a failure.
              if (!(e instanceof ApiError)) throw e;
            }
            expect(usedToday(db, uid, 'GT', now).toFixed(), JSON.stringify(o)).toBe(truth(db, uid, now));
          }
        } finally {
          db.close();
        }
      }),
      { numRuns: 40 },
    );
  });
});
