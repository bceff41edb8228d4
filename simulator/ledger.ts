import Decimal from 'decimal.js';
import { Dec, fmt } from '../shared/money.ts';
import { stmt, type DB } from './db.ts';
import { ApiError } from './errors.ts';

// The Sandbox's books. Every balance change goes through applyMoves, inside the caller's SQLite
// transaction, so a transfer, withdrawal, fee, cancellation or refund lands whole or not at all, and
// no available balance ever goes below zero.

export type AccountType = 'spot' | 'margin' | 'futures' | 'delivery' | 'options' | 'cross_margin' | 'finance';

/** One balance holder: an account type of one user, narrowed by sub_key (margin: pair, futures/delivery: settle). */
export interface Pocket {
  uid: string;
  type: AccountType;
  subKey: string;
}

export interface Move {
  pocket: Pocket;
  currency: string;
  /** Change of `available`; negative takes money out. */
  delta: Decimal;
}

/** The exchange's own account: it takes small balances in and pays GT out, so conversions keep each currency's sum. */
export const HOUSE_UID = '1';

export function spot(uid: string): Pocket {
  return { uid, type: 'spot', subKey: '' };
}

export function available(db: DB, p: Pocket, currency: string): Decimal {
  const row = stmt(db, 'SELECT available FROM balances WHERE uid = ? AND account_type = ? AND sub_key = ? AND currency = ?').get(
    p.uid,
    p.type,
    p.subKey,
    currency,
  ) as { available: string } | undefined;
  return new Dec(row?.available ?? '0');
}

export function hasPocket(db: DB, p: Pocket): boolean {
  return (
    stmt(db, 'SELECT 1 FROM balances WHERE uid = ? AND account_type = ? AND sub_key = ? LIMIT 1').get(p.uid, p.type, p.subKey) !== undefined
  );
}

/**
 * Applies all moves or none. Must run inside db.transaction(): a refusal throws, and the transaction
 * rolls back whatever this or an earlier step of the same operation wrote.
 */
export function applyMoves(db: DB, moves: Move[], kind: string, ref: string, ts: number, shortLabel = 'BALANCE_NOT_ENOUGH'): void {
  if (!db.inTransaction) throw new Error('applyMoves must run inside a transaction');
  const upsert = stmt(
    db,
    `INSERT INTO balances (uid, account_type, sub_key, currency, available) VALUES (?, ?, ?, ?, ?)
    ON CONFLICT(uid, account_type, sub_key, currency) DO UPDATE SET available = excluded.available`,
  );
  const entry = stmt(
    db,
    'INSERT INTO ledger_entries (ts, uid, account_type, sub_key, currency, delta, kind, ref) VALUES (?, ?, ?, ?, ?, ?, ?, ?)',
  );
  for (const m of moves) {
    if (m.delta.isZero()) continue;
    const next = available(db, m.pocket, m.currency).plus(m.delta);
    if (next.isNegative()) {
      throw new ApiError(shortLabel, `${m.pocket.type} account of ${m.pocket.uid} holds less ${m.currency} than ${fmt(m.delta.neg())}`);
    }
    upsert.run(m.pocket.uid, m.pocket.type, m.pocket.subKey, m.currency, fmt(next));
    entry.run(Math.floor(ts), m.pocket.uid, m.pocket.type, m.pocket.subKey, m.currency, fmt(m.delta), kind, ref);
  }
}

/** Moves `amount` from one pocket to another: the sum over all accounts does not change. */
export function transfer(db: DB, from: Pocket, to: Pocket, currency: string, amount: Decimal, kind: string, ref: string, ts: number): void {
  applyMoves(
    db,
    [
      { pocket: from, currency, delta: amount.neg() },
      { pocket: to, currency, delta: amount },
    ],
    kind,
    ref,
    ts,
  );
}

/** Per currency, the sum of every balance (available + locked) over all accounts, the house included. */
export function currencyTotals(db: DB): Map<string, Decimal> {
  const out = new Map<string, Decimal>();
  const rows = db.prepare('SELECT currency, available, locked FROM balances').iterate() as Iterable<{
    currency: string;
    available: string;
    locked: string;
  }>;
  for (const r of rows) out.set(r.currency, (out.get(r.currency) ?? new Dec(0)).plus(r.available).plus(r.locked));
  return out;
}

export function negativeBalances(db: DB): { uid: string; account_type: string; currency: string; available: string }[] {
  const rows = db.prepare('SELECT uid, account_type, currency, available, locked FROM balances').all() as {
    uid: string;
    account_type: string;
    currency: string;
    available: string;
    locked: string;
  }[];
  return rows.filter((r) => new Dec(r.available).isNegative() || new Dec(r.locked).isNegative());
}
