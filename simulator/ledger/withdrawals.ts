import { randomBytes } from 'node:crypto';
import Decimal from 'decimal.js';
import { CANCELLABLE_WITHDRAWAL_STATUSES, FINAL_WITHDRAWAL_STATUSES, WITHDRAWAL_STATUSES } from '../../shared/api/statuses.ts';
import { WITHDRAWAL_FIELDS } from '../../shared/api/records.ts';
import { Dec, decimalPlaces, fmt } from '../../shared/money.ts';
import { stmt, type DB } from '../db.ts';
import { ApiError } from '../errors.ts';
import { applyMoves, spot } from '../ledger.ts';
import { addressOwner } from './addresses.ts';
import { chainsOf, currencyRow, type ChainRow, type CurrencyRow } from './catalog.ts';
import { recordDeposit } from './deposits.ts';

// The withdrawal life cycle (§3.1 shows no transitions; this is the Sandbox's documented choice):
//   REQUEST -> EXTPEND -> DONE                          small amounts
//   REQUEST -> REVIEW  -> EXTPEND -> DONE               at or above the currency's review threshold
//   REQUEST -> MANUAL  -> EXTPEND -> DONE | REJECT      at or above the manual threshold
//   EXTPEND -> FAIL    -> REJECT                        some on-chain sends fail
//   REQUEST -> DONE                                     internal (to a Sandbox address): free, no block
//   REQUEST | REVIEW | MANUAL | FVERIFY -> CANCELPEND -> CANCEL    by DELETE
// The amount leaves spot when the withdrawal is accepted; CANCEL and REJECT return it whole.

export interface WithdrawalRow {
  seq: number;
  uid: string;
  withdraw_order_id: string;
  currency: string;
  chain: string;
  address: string;
  memo: string;
  amount: string;
  fee: string;
  status: string;
  type: string;
  route: string;
  outcome: string;
  receiver_uid: string | null;
  asset_class: string;
  txid: string;
  block_number: string;
  fail_reason: string;
  timestamp: number;
  timestamp2: number | null;
  next_at: number | null;
}

/** Seconds each status lasts at speed 1 before the life cycle moves it on. */
export const PACE_SEC: Record<string, number> = { REQUEST: 10, REVIEW: 30, MANUAL: 60, EXTPEND: 30, FAIL: 60, CANCELPEND: 3 };

export const FINAL = FINAL_WITHDRAWAL_STATUSES;
/** Statuses in which the amount has gone back to the account. */
export const REFUNDED = new Set(['CANCEL', 'REJECT']);
/** §3.1 statuses that appear in lists; the admin API may move a withdrawal to any of them. */
export const LIST_STATUSES = Object.keys(WITHDRAWAL_STATUSES) as Array<keyof typeof WITHDRAWAL_STATUSES>;

export const CANCEL_REASON = 'Cancelled by the user';

export function wireId(seq: number): string {
  return `w${seq}`;
}

/** Accepts "w123" (list ids) and "123" (create-response ids); null when it is neither. */
export function parseWithdrawalId(s: string): number | null {
  const m = /^w?([1-9]\d{0,15})$/.exec(s);
  return m ? Number(m[1]) : null;
}

export function nextAt(status: string, nowSec: number, speed: number): number | null {
  const pace = PACE_SEC[status];
  if (pace === undefined || speed <= 0) return null;
  return nowSec + pace / speed;
}

export type WithdrawalWire = Pick<WithdrawalRow, Exclude<(typeof WITHDRAWAL_FIELDS)[number], 'id'> | 'seq'>;

/**
 * What the lists select: the columns an answer shows (withdrawalRecord; its id is made from `seq`), 15 of
 * the table's 21. better-sqlite3 makes a string of every column it reads, and a page of 1,000 took 5.6 ms
 * with `*` against 3.3 ms with these.
 */
export const WITHDRAWAL_WIRE_COLUMNS = WITHDRAWAL_FIELDS.map((f) => (f === 'id' ? 'seq' : f)).join(', ');

/** §2.3 record as GET /wallet/withdrawals shows it. */
export function withdrawalRecord(w: WithdrawalWire) {
  return {
    id: wireId(w.seq),
    txid: w.txid,
    block_number: w.block_number,
    withdraw_order_id: w.withdraw_order_id,
    timestamp: String(w.timestamp),
    amount: w.amount,
    fee: w.fee,
    currency: w.currency,
    address: w.address,
    type: w.type,
    fail_reason: w.status === 'CANCEL' ? w.fail_reason : '',
    timestamp2: w.status === 'DONE' || w.status === 'CANCEL' ? String(w.timestamp2 ?? '') : '',
    memo: w.memo,
    status: w.status,
    chain: w.chain,
  };
}

export function getWithdrawal(db: DB, seq: number): WithdrawalRow | undefined {
  return stmt(db, 'SELECT * FROM withdrawals WHERE seq = ?').get(seq) as WithdrawalRow | undefined;
}

export function feeFor(chain: ChainRow, amount: Decimal): Decimal {
  const pct = amount.times(chain.fee_percent).div(100).toDecimalPlaces(chain.decimal, Decimal.ROUND_UP);
  return new Dec(chain.fee_fix).plus(pct);
}

function utcDayStart(nowSec: number): number {
  return Math.floor(nowSec / 86400) * 86400;
}

// Read from the withdrawals_day index alone (db.ts), refunded ones left out by SQLite.
const USED_ON_DAY_SQL = `SELECT amount FROM withdrawals WHERE uid = ? AND currency = ? AND timestamp >= ? AND timestamp < ?
  AND status NOT IN (${[...REFUNDED].map((s) => `'${s}'`).join(', ')})`;

const PLAIN_AMOUNT = /^(\d{1,15})(?:\.(\d{1,8}))?$/;

/**
 * The exact sum of decimal amounts. A day's withdrawals run to thousands and a decimal.js addition
 * each made the daily-limit check grow by milliseconds (POST /withdrawals, GET withdraw_status), so
 * plain amounts (at most 8 decimals, §8.5) are added as whole units and 1e-8 units in safe integers;
 * anything else, or totals past 2^53, go through decimal.js.
 */
export function sumAmounts(amounts: readonly string[]): Decimal {
  let whole = 0;
  let units = 0;
  let other = new Dec(0);
  for (const a of amounts) {
    const m = PLAIN_AMOUNT.exec(a);
    if (!m) {
      other = other.plus(a);
      continue;
    }
    whole += Number(m[1]);
    if (m[2] !== undefined) units += Number(m[2].padEnd(8, '0'));
  }
  if (!Number.isSafeInteger(whole) || !Number.isSafeInteger(units)) return amounts.reduce((s, a) => s.plus(a), new Dec(0));
  return new Dec(whole).plus(new Dec(units).div(100_000_000)).plus(other);
}

/** A day's kept total (withdrawal_days), or undefined while that day has not been read. */
function keptUsed(db: DB, uid: string, currency: string, day: number): string | undefined {
  return stmt(db, 'SELECT used FROM withdrawal_days WHERE uid = ? AND currency = ? AND day = ?').pluck().get(uid, currency, day) as
    string | undefined;
}

/**
 * Daily amount already used by withdrawals of this UTC day that were not returned. Summing the day's
 * withdrawals on every check slowed GET withdraw_status 80 times after four minutes of a withdrawal
 * every 10 ms (11,636 to 146 a second; docs/performance.md §The Sandbox), and made every check allocate the whole day's
 * amounts: the day's total is kept instead, summed from the rows the first time it is read, then moved
 * by each withdrawal made (createWithdrawal) and returned (enterStatus), in their transactions.
 */
export function usedToday(db: DB, uid: string, currency: string, nowSec: number): Decimal {
  const day = utcDayStart(nowSec);
  const kept = keptUsed(db, uid, currency, day);
  if (kept !== undefined) return new Dec(kept);
  const used = sumAmounts(
    stmt(db, USED_ON_DAY_SQL)
      .pluck()
      .all(uid, currency, day, day + 86400) as string[],
  );
  stmt(db, 'INSERT INTO withdrawal_days (uid, currency, day, used) VALUES (?, ?, ?, ?)').run(uid, currency, day, used.toFixed());
  return used;
}

/** Moves a day's kept total by `delta`; a day not yet read is summed from the rows when it is. */
function moveUsed(db: DB, uid: string, currency: string, timestamp: number, delta: Decimal): void {
  const day = utcDayStart(timestamp);
  const kept = keptUsed(db, uid, currency, day);
  if (kept === undefined) return;
  stmt(db, 'UPDATE withdrawal_days SET used = ? WHERE uid = ? AND currency = ? AND day = ?').run(
    new Dec(kept).plus(delta).toFixed(),
    uid,
    currency,
    day,
  );
}

export function dayRemaining(db: DB, cur: CurrencyRow, uid: string, nowSec: number): Decimal {
  return Decimal.max(0, new Dec(cur.withdraw_day).minus(usedToday(db, uid, cur.currency, nowSec)));
}

export interface WithdrawInput {
  uid: string;
  currency: string;
  chain: string;
  address: string;
  memo: string;
  amount: string;
  withdraw_order_id: string;
  asset_class: string;
}

/** Creates a withdrawal (one transaction: checks, debit, record). Refusals throw ApiError with the §7 label. */
export function createWithdrawal(db: DB, input: WithdrawInput, nowSec: number, speed: number, refuseDuplicates: boolean) {
  return db.transaction(() => {
    const cur = currencyRow(db, input.currency);
    if (!cur || cur.low_cap) throw new ApiError('INVALID_CURRENCY', `currency ${input.currency} cannot be withdrawn through the API`);
    const chain = chainsOf(db, input.currency).find((c) => c.chain === input.chain);
    if (!chain) throw new ApiError('INVALID_PARAM_VALUE', `chain ${input.chain} is not a chain of ${input.currency}`);
    if (chain.is_disabled || chain.is_withdraw_disabled)
      throw new ApiError('API_WITHDRAW_DISABLED', `withdrawals of ${input.currency} on ${chain.chain} are disabled`);
    if (chain.is_tag && input.memo === '') throw new ApiError('MISSING_REQUIRED_PARAM', `memo is required on chain ${chain.chain}`);
    if (decimalPlaces(input.amount) > chain.decimal) {
      throw new ApiError('INVALID_PRECISION', `amount has more than ${chain.decimal} decimal places, the precision of ${chain.chain}`);
    }
    if (
      refuseDuplicates &&
      input.withdraw_order_id !== '' &&
      stmt(db, 'SELECT 1 FROM withdrawals WHERE uid = ? AND withdraw_order_id = ?').get(input.uid, input.withdraw_order_id)
    ) {
      throw new ApiError('ORDER_EXISTS', `withdraw_order_id ${input.withdraw_order_id} was used already`);
    }
    const amount = new Dec(input.amount);
    const receiver = addressOwner(db, chain, input.address, input.memo);
    const fee = receiver ? new Dec(0) : feeFor(chain, amount);
    if (amount.lt(cur.withdraw_min))
      throw new ApiError('AMOUNT_TOO_LITTLE', `the minimum withdrawal of ${cur.currency} is ${cur.withdraw_min}`);
    if (amount.lte(fee)) throw new ApiError('AMOUNT_TOO_LITTLE', `amount must be above the fee of ${fmt(fee)} ${cur.currency}`);
    if (amount.gt(cur.withdraw_each))
      throw new ApiError('WITHDRAWAL_OVER_LIMIT', `the maximum per withdrawal of ${cur.currency} is ${cur.withdraw_each}`);
    const remain = dayRemaining(db, cur, input.uid, nowSec);
    if (amount.gt(remain)) throw new ApiError('WITHDRAWAL_OVER_LIMIT', `the daily limit left for ${cur.currency} is ${fmt(remain)}`);

    const route = receiver ? 'internal' : amount.gte(cur.manual_above) ? 'manual' : amount.gte(cur.review_above) ? 'review' : 'direct';
    const ts = Math.floor(nowSec);
    const info = stmt(
      db,
      `INSERT INTO withdrawals (uid, withdraw_order_id, currency, chain, address, memo, amount, fee, status, type, route, outcome,
      receiver_uid, asset_class, timestamp, next_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, 'REQUEST', ?, ?, 'done', ?, ?, ?, ?)`,
    ).run(
      input.uid,
      input.withdraw_order_id,
      cur.currency,
      chain.chain,
      input.address,
      input.memo,
      fmt(amount),
      fmt(fee),
      receiver ? 'internal' : 'withdraw',
      route,
      receiver ?? null,
      input.asset_class,
      ts,
      nextAt('REQUEST', nowSec, speed),
    );
    const seq = Number(info.lastInsertRowid);
    moveUsed(db, input.uid, cur.currency, ts, amount);
    // Some sends fail or are refused, deterministically by id, so a run can be replayed.
    const outcome = route === 'manual' && seq % 4 === 0 ? 'reject' : route !== 'internal' && seq % 20 === 13 ? 'fail' : 'done';
    if (outcome !== 'done') stmt(db, 'UPDATE withdrawals SET outcome = ? WHERE seq = ?').run(outcome, seq);
    applyMoves(db, [{ pocket: spot(input.uid), currency: cur.currency, delta: amount.neg() }], 'withdraw', wireId(seq), nowSec);

    // §3.1: these statuses appear only in the create response.
    const createStatus = route === 'internal' ? 'PROCES' : route === 'manual' ? 'DMOVE' : route === 'review' ? 'VERIFY' : 'PEND';
    return {
      id: String(seq),
      timestamp: String(ts),
      withdraw_order_id: input.withdraw_order_id,
      currency: cur.currency,
      address: input.address,
      txid: '',
      amount: fmt(amount),
      memo: input.memo,
      withdraw_id: wireId(seq),
      asset_class: input.asset_class,
      status: createStatus,
      chain: chain.chain,
    };
  })();
}

function hexTxid(): string {
  return randomBytes(32).toString('hex');
}

/**
 * Puts a withdrawal into `status` with that status's effects: a txid on EXTPEND, success time, block
 * and (internal) the receiver's credit on DONE, the amount returned on CANCEL and REJECT. A final
 * withdrawal never moves again. Runs in one transaction.
 */
export function enterStatus(db: DB, seq: number, status: string, nowSec: number, speed: number): WithdrawalRow {
  return db.transaction(() => {
    const w = getWithdrawal(db, seq);
    if (!w) throw new ApiError('INVALID_WITHDRAW_ID', `no withdrawal ${wireId(seq)}`);
    if (!(LIST_STATUSES as readonly string[]).includes(status))
      throw new ApiError('INVALID_PARAM_VALUE', `not a withdrawal status: ${status}`);
    if (FINAL.has(w.status))
      throw new ApiError('INVALID_WITHDRAW_CANCEL_STATUS', `withdrawal ${wireId(seq)} is ${w.status}, a final status`);
    const ts = Math.floor(nowSec);
    const internal = w.type === 'internal';
    let { txid, block_number, fail_reason } = w;
    let timestamp2: number | null = w.timestamp2;
    if (status === 'EXTPEND' && !txid) txid = internal ? `Internal transfer ${wireId(seq)}` : hexTxid();
    if (status === 'DONE') {
      if (!txid) txid = internal ? `Internal transfer ${wireId(seq)}` : hexTxid();
      if (!internal) block_number = String(18_000_000 + seq);
      timestamp2 = ts;
      if (internal && w.receiver_uid) {
        const arriving = new Dec(w.amount).minus(w.fee);
        recordDeposit(
          db,
          {
            uid: w.receiver_uid,
            currency: w.currency,
            chain: w.chain,
            address: w.address,
            memo: w.memo,
            amount: fmt(arriving),
            txid,
            status: 'DONE',
          },
          nowSec,
        );
      }
    }
    if (REFUNDED.has(status)) {
      // Refunded statuses are final, so a withdrawal leaves its day's total once.
      moveUsed(db, w.uid, w.currency, w.timestamp, new Dec(w.amount).neg());
      applyMoves(
        db,
        [{ pocket: spot(w.uid), currency: w.currency, delta: new Dec(w.amount) }],
        status === 'CANCEL' ? 'withdraw_cancel' : 'withdraw_reject',
        wireId(seq),
        nowSec,
      );
      if (status === 'CANCEL') {
        fail_reason = CANCEL_REASON;
        timestamp2 = ts;
      }
    }
    stmt(
      db,
      'UPDATE withdrawals SET status = ?, txid = ?, block_number = ?, fail_reason = ?, timestamp2 = ?, next_at = ? WHERE seq = ?',
    ).run(status, txid, block_number, fail_reason, timestamp2, FINAL.has(status) ? null : nextAt(status, nowSec, speed), seq);
    return getWithdrawal(db, seq)!;
  })();
}

/** The status the life cycle moves a withdrawal to next, or null when it waits for someone. */
export function autoNext(w: WithdrawalRow): string | null {
  switch (w.status) {
    case 'REQUEST':
      return w.route === 'internal' ? 'DONE' : w.route === 'manual' ? 'MANUAL' : w.route === 'review' ? 'REVIEW' : 'EXTPEND';
    case 'REVIEW':
      return 'EXTPEND';
    case 'MANUAL':
      return w.outcome === 'reject' ? 'REJECT' : 'EXTPEND';
    case 'EXTPEND':
      return w.outcome === 'fail' ? 'FAIL' : 'DONE';
    case 'FAIL':
      return 'REJECT';
    case 'CANCELPEND':
      return 'CANCEL';
    default:
      return null;
  }
}

/** DELETE /withdrawals/{id}: the statuses the desk assumes cancellable (shared/api/statuses.ts) may be; the funds return at CANCEL. */
export function cancelWithdrawal(db: DB, uid: string, idText: string, nowSec: number, speed: number) {
  const seq = parseWithdrawalId(idText);
  const w = seq === null ? undefined : getWithdrawal(db, seq);
  if (!w || w.uid !== uid) throw new ApiError('INVALID_WITHDRAW_ID', `no withdrawal ${idText} on this account`);
  if (!CANCELLABLE_WITHDRAWAL_STATUSES.has(w.status)) {
    throw new ApiError(
      'INVALID_WITHDRAW_CANCEL_STATUS',
      `withdrawal ${wireId(w.seq)} is ${w.status}; only ${[...CANCELLABLE_WITHDRAWAL_STATUSES].join(', ')} can be cancelled`,
    );
  }
  const after = enterStatus(db, w.seq, 'CANCELPEND', nowSec, speed);
  return {
    id: wireId(after.seq),
    timestamp: String(after.timestamp),
    currency: after.currency,
    address: after.address,
    txid: after.txid,
    amount: after.amount,
    memo: after.memo,
    block_number: after.block_number,
    status: after.status,
    chain: after.chain,
  };
}
