import { DEPOSIT_STATUSES as DEPOSIT_STATUS_NAMES } from '../../shared/api/statuses.ts';
import { Dec } from '../../shared/money.ts';
import { stmt, type DB } from '../db.ts';
import { applyMoves, spot } from '../ledger.ts';

/** §3.2 statuses in which the amount sits on the spot account. */
export const CREDITED = new Set(['DONE', 'DEP_CREDITED']);
/** §3.2 */
export const DEPOSIT_STATUSES = Object.keys(DEPOSIT_STATUS_NAMES) as Array<keyof typeof DEPOSIT_STATUS_NAMES>;

export interface DepositRow {
  seq: number;
  uid: string;
  currency: string;
  chain: string;
  address: string;
  memo: string;
  amount: string;
  txid: string;
  status: string;
  timestamp: number;
}

export interface DepositInput {
  uid: string;
  currency: string;
  chain: string;
  address: string;
  memo: string;
  amount: string;
  txid: string;
  status: string;
}

/** Records a deposit and, when its status is a credited one, credits the spot account (inside the caller's transaction or its own). */
export function recordDeposit(db: DB, d: DepositInput, nowSec: number): DepositRow {
  return db.transaction(() => {
    const info = stmt(
      db,
      'INSERT INTO deposits (uid, currency, chain, address, memo, amount, txid, status, timestamp) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)',
    ).run(d.uid, d.currency, d.chain, d.address, d.memo, d.amount, d.txid, d.status, Math.floor(nowSec));
    const seq = Number(info.lastInsertRowid);
    if (CREDITED.has(d.status))
      applyMoves(db, [{ pocket: spot(d.uid), currency: d.currency, delta: new Dec(d.amount) }], 'deposit', depositId(seq), nowSec);
    return stmt(db, 'SELECT * FROM deposits WHERE seq = ?').get(seq) as DepositRow;
  })();
}

export function depositId(seq: number): string {
  return `d${seq}`;
}

/** §2.4 record. */
export function depositRecord(d: DepositRow) {
  return {
    id: depositId(d.seq),
    txid: d.txid,
    timestamp: String(d.timestamp),
    amount: d.amount,
    currency: d.currency,
    address: d.address,
    memo: d.memo,
    status: d.status,
    chain: d.chain,
  };
}
