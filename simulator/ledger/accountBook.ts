import type Decimal from 'decimal.js';
import { Dec, fmt } from '../../shared/money.ts';
import { stmt, type DB } from '../db.ts';

// The spot account book (§4.4 names GET /spot/account_book; its shape is the live service's: Gate API v4
// "List account book", docs/SpotApi.md#list_spot_account_book and docs/SpotAccountBook.md of
// gateio/gateapi-python). One entry per change of a spot balance (available + locked): what
// ledger_entries holds (every movement but trades), and each spot trade's two sides and its fee from
// spot_fills. Locking and unlocking for orders change no total and make no entry. `balance` is the
// total after the entry, counted back from the balance now, so it needs no column the writes keep.

/** The live record (SpotAccountBook): `time` in milliseconds; `text` names the record that caused it. */
export interface BookEntry {
  id: string;
  time: number;
  currency: string;
  change: string;
  balance: string;
  type: string;
  code: string;
  text: string;
}

/**
 * Entry types. The live documentation's list of account book types is not in the spec; these name the
 * Sandbox's movements in its words, one code each (its own choice, written in simulator/README.md).
 */
export const BOOK_TYPES: Record<string, { type: string; code: string }> = {
  deposit: { type: 'deposit', code: '101' },
  withdraw: { type: 'withdraw', code: '102' },
  withdraw_cancel: { type: 'withdraw_cancel', code: '103' },
  withdraw_reject: { type: 'withdraw_reject', code: '104' },
  sub_transfer: { type: 'sub_account_transfer', code: '201' },
  sub_to_sub: { type: 'sub_account_transfer', code: '202' },
  transfer: { type: 'account_transfer', code: '203' },
  uid_transfer: { type: 'uid_transfer', code: '204' },
  small_balance: { type: 'small_balance_convert', code: '301' },
  trade: { type: 'trade', code: '401' },
  fee: { type: 'trading_fee', code: '402' },
};

interface Raw {
  /** Order within the book: time, then ledger entries before fills, then their ids. */
  ms: number;
  src: 0 | 1;
  seq: number;
  part: number;
  currency: string;
  change: Decimal;
  kind: string;
  text: string;
}

interface FillRow {
  id: number;
  trade_id: number;
  order_id: number;
  pair: string;
  side: string;
  amount: string;
  price: string;
  fee: string;
  fee_currency: string;
  ts_ms: number;
}

/** A trade side's changes: what was paid, what was got, and the fee taken from what was got. */
function fillEntries(f: FillRow): Raw[] {
  const [base, quote] = f.pair.split('_') as [string, string];
  const total = new Dec(f.amount).times(f.price);
  const buy = f.side === 'buy';
  const text = `order ${f.order_id} trade ${f.trade_id}`;
  const at = { ms: f.ts_ms, src: 1 as const, seq: f.id, text };
  return [
    { ...at, part: 0, currency: buy ? quote : base, change: (buy ? total : new Dec(f.amount)).neg(), kind: 'trade' },
    { ...at, part: 1, currency: buy ? base : quote, change: buy ? new Dec(f.amount) : total, kind: 'trade' },
    { ...at, part: 2, currency: f.fee_currency, change: new Dec(f.fee).neg(), kind: 'fee' },
  ].filter((e) => !e.change.isZero());
}

/** Every change of `uid`'s spot balances from `fromMs` on (of `currency`, if given), oldest first. */
function changesSince(db: DB, uid: string, fromMs: number, currency: string | undefined): Raw[] {
  const ledger = stmt(
    db,
    `SELECT id, ts, currency, delta, kind, ref FROM ledger_entries
     WHERE uid = ? AND account_type = 'spot' AND ts >= ? AND (? IS NULL OR currency = ?)`,
  ).all(uid, Math.floor(fromMs / 1000), currency ?? null, currency ?? null) as {
    id: number;
    ts: number;
    currency: string;
    delta: string;
    kind: string;
    ref: string;
  }[];
  const fills = stmt(
    db,
    `SELECT f.id, f.trade_id, f.order_id, f.pair, f.side, f.amount, f.price, f.fee, f.fee_currency, f.ts_ms
     FROM spot_fills f JOIN spot_orders o ON o.id = f.order_id
     WHERE f.uid = ? AND f.ts_ms >= ? AND o.account = 'spot'`,
  ).all(uid, fromMs) as FillRow[];
  const out: Raw[] = ledger.map((e) => ({
    ms: e.ts * 1000,
    src: 0,
    seq: e.id,
    part: 0,
    currency: e.currency,
    change: new Dec(e.delta),
    kind: e.kind,
    text: e.ref,
  }));
  for (const f of fills) for (const e of fillEntries(f)) if (currency === undefined || e.currency === currency) out.push(e);
  return out.sort((a, b) => a.ms - b.ms || a.src - b.src || a.seq - b.seq || a.part - b.part);
}

function totalsNow(db: DB, uid: string): Map<string, Decimal> {
  const rows = stmt(db, "SELECT currency, available, locked FROM balances WHERE uid = ? AND account_type = 'spot'").all(uid) as {
    currency: string;
    available: string;
    locked: string;
  }[];
  return new Map(rows.map((r) => [r.currency, new Dec(r.available).plus(r.locked)]));
}

export interface BookQuery {
  uid: string;
  currency?: string;
  fromMs: number;
  toMs: number;
  type?: string;
  limit: number;
  offset: number;
}

/** The entries of [fromMs, toMs], newest first (as the live service lists them), one page. */
export function accountBook(db: DB, q: BookQuery): BookEntry[] {
  const changes = changesSince(db, q.uid, q.fromMs, q.currency);
  const totals = totalsNow(db, q.uid);
  const after = new Map<string, Decimal>();
  const out: BookEntry[] = [];
  for (let i = changes.length - 1; i >= 0; i--) {
    const c = changes[i]!;
    const balance = after.get(c.currency) ?? totals.get(c.currency) ?? new Dec(0);
    after.set(c.currency, balance.minus(c.change));
    if (c.ms > q.toMs || c.ms < q.fromMs) continue;
    const t = BOOK_TYPES[c.kind] ?? { type: c.kind, code: '900' };
    if (q.type !== undefined && t.type !== q.type) continue;
    out.push({
      id: `${c.src === 0 ? 'L' : 'F'}${c.seq}${c.src === 1 ? `-${c.part}` : ''}`,
      time: c.ms,
      currency: c.currency,
      change: fmt(c.change),
      balance: fmt(balance),
      type: t.type,
      code: t.code,
      text: c.text,
    });
  }
  return out.slice(q.offset, q.offset + q.limit);
}
