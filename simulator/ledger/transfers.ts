import Decimal from 'decimal.js';
import { Dec, fmt } from '../../shared/money.ts';
import { stmt, type DB } from '../db.ts';
import { ApiError } from '../errors.ts';
import { applyMoves, spot, transfer, HOUSE_UID, type Pocket } from '../ledger.ts';
import { currencyRow, DELIVERY_SETTLES, FUTURES_SETTLES } from './catalog.ts';

// Transfers between accounts: own accounts (§4.1 POST /wallet/transfers), main and sub (POST
// /wallet/sub_account_transfers), sub and sub, and UID transfers between main accounts (§4.2 push).
// Each is one transaction: the checks, the two balance moves and the record.

export interface AccountRow {
  uid: string;
  main_uid: string | null;
  name: string;
  locked: number;
  created_at: number;
}

export function account(db: DB, uid: string): AccountRow | undefined {
  return stmt(db, 'SELECT * FROM accounts WHERE uid = ?').get(uid) as AccountRow | undefined;
}

/** The uids of the sub-accounts of `mainUid`, in uid order. */
export function subAccountUids(db: DB, mainUid: string): string[] {
  return stmt(db, 'SELECT uid FROM accounts WHERE main_uid = ? ORDER BY CAST(uid AS INTEGER)').pluck().all(mainUid) as string[];
}

/** The sub-account `uid` of `mainUid`, or SUB_ACCOUNT_NOT_FOUND. */
export function subAccount(db: DB, mainUid: string, uid: string): AccountRow {
  const a = /^\d{1,19}$/.test(uid) ? account(db, uid) : undefined;
  if (!a || a.main_uid !== mainUid) throw new ApiError('SUB_ACCOUNT_NOT_FOUND', `${uid} is not a sub-account of ${mainUid}`);
  return a;
}

function requireCurrency(db: DB, currency: string): void {
  if (currency === 'POINT') throw new ApiError('INVALID_CURRENCY', 'point cards are not modelled by the Sandbox');
  if (!currencyRow(db, currency)) throw new ApiError('INVALID_CURRENCY', `unknown currency ${currency}`);
}

export const OWN_ACCOUNT_TYPES = ['spot', 'margin', 'futures', 'delivery', 'options'] as const;

export interface OwnTransferInput {
  currency: string;
  from: string;
  to: string;
  amount: string;
  currency_pair?: string;
  settle?: string;
}

/** The pocket an own-account transfer touches on one side, with the §4.1 rules for currency_pair and settle. */
function ownPocket(db: DB, uid: string, type: string, t: OwnTransferInput): Pocket {
  switch (type) {
    case 'spot':
      return spot(uid);
    case 'margin': {
      if (!t.currency_pair) throw new ApiError('MISSING_REQUIRED_PARAM', 'currency_pair is required when either side is margin');
      const pair = stmt(db, 'SELECT base, quote FROM currency_pairs WHERE id = ?').get(t.currency_pair) as
        { base: string; quote: string } | undefined;
      if (!pair) throw new ApiError('INVALID_CURRENCY_PAIR', `unknown currency pair ${t.currency_pair}`);
      if (t.currency !== pair.base && t.currency !== pair.quote)
        throw new ApiError('INVALID_PARAM_VALUE', `${t.currency} is not a currency of ${t.currency_pair}`);
      return { uid, type: 'margin', subKey: t.currency_pair };
    }
    case 'futures':
    case 'delivery': {
      if (!t.settle) throw new ApiError('MISSING_REQUIRED_PARAM', `settle is required when either side is ${type}`);
      const settle = t.settle.toLowerCase();
      const allowed: readonly string[] = type === 'futures' ? FUTURES_SETTLES : DELIVERY_SETTLES;
      if (!allowed.includes(settle)) throw new ApiError('INVALID_PARAM_VALUE', `settle must be one of ${allowed.join(', ')} for ${type}`);
      if (t.currency !== settlementCurrency(settle))
        throw new ApiError(
          'INVALID_PARAM_VALUE',
          `a ${settle}-settled ${type} account holds ${settlementCurrency(settle)}, not ${t.currency}`,
        );
      return { uid, type, subKey: settle };
    }
    case 'options':
      if (t.settle && t.settle.toLowerCase() !== 'usdt') throw new ApiError('INVALID_PARAM_VALUE', 'options settle in usdt');
      if (t.currency !== 'USDT') throw new ApiError('INVALID_PARAM_VALUE', 'the options account holds USDT');
      return { uid, type: 'options', subKey: '' };
    default:
      throw new ApiError('INVALID_PARAM_VALUE', `account must be one of ${OWN_ACCOUNT_TYPES.join(', ')}, got ${type}`);
  }
}

/** usd-settled futures hold BTC, as on the live service's inverse contracts. */
function settlementCurrency(settle: string): string {
  return settle === 'usd' ? 'BTC' : settle.toUpperCase();
}

function insertTransfer(
  db: DB,
  r: {
    kind: string;
    main_uid: string;
    from: Pocket;
    to: Pocket;
    sub_account?: string;
    sub_account_type?: string;
    direction?: string;
    currency: string;
    amount: Decimal;
    client_order_id?: string;
    ts: number;
  },
): number {
  const info = stmt(
    db,
    `INSERT INTO transfers (kind, main_uid, from_uid, from_type, to_uid, to_type, sub_account, sub_account_type, direction, currency,
    amount, source, client_order_id, status, timest) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, 'api', ?, 'SUCCESS', ?)`,
  ).run(
    r.kind,
    r.main_uid,
    r.from.uid,
    r.from.type,
    r.to.uid,
    r.to.type,
    r.sub_account ?? '',
    r.sub_account_type ?? '',
    r.direction ?? '',
    r.currency,
    fmt(r.amount),
    r.client_order_id ?? '',
    Math.floor(r.ts),
  );
  return Number(info.lastInsertRowid);
}

export function ownTransfer(db: DB, uid: string, mainUid: string, t: OwnTransferInput, nowSec: number): { tx_id: number } {
  return db.transaction(() => {
    requireCurrency(db, t.currency);
    for (const side of [t.from, t.to]) {
      if (!(OWN_ACCOUNT_TYPES as readonly string[]).includes(side))
        throw new ApiError('INVALID_PARAM_VALUE', `account must be one of ${OWN_ACCOUNT_TYPES.join(', ')}, got ${side}`);
    }
    if (t.from === t.to) throw new ApiError('INVALID_PARAM_VALUE', 'from and to must be different accounts');
    const from = ownPocket(db, uid, t.from, t);
    const to = ownPocket(db, uid, t.to, t);
    const amount = new Dec(t.amount);
    const txId = insertTransfer(db, { kind: 'own', main_uid: mainUid, from, to, currency: t.currency, amount, ts: nowSec });
    transfer(db, from, to, t.currency, amount, 'transfer', `tx${txId}`, nowSec);
    return { tx_id: txId };
  })();
}

export const SUB_ACCOUNT_TYPES = ['spot', 'futures', 'delivery', 'options'] as const;
export const SUB_TO_SUB_TYPES = ['spot', 'futures', 'delivery'] as const;

/** A sub-account's pocket of one type; futures and delivery pick the settlement account from the currency. */
function typedPocket(uid: string, type: string, currency: string): Pocket {
  switch (type) {
    case 'spot':
      return spot(uid);
    case 'futures':
      if (currency !== 'USDT' && currency !== 'BTC')
        throw new ApiError('INVALID_PARAM_VALUE', `futures accounts settle in USDT or BTC, not ${currency}`);
      return { uid, type: 'futures', subKey: currency.toLowerCase() };
    case 'delivery':
    case 'options':
      if (currency !== 'USDT') throw new ApiError('INVALID_PARAM_VALUE', `${type} accounts hold USDT, not ${currency}`);
      return { uid, type: type, subKey: type === 'delivery' ? 'usdt' : '' };
    default:
      throw new ApiError('INVALID_PARAM_VALUE', `unknown account type ${type}`);
  }
}

export const CLIENT_ORDER_ID_RE = /^[A-Za-z0-9_-]{1,64}$/;

export interface MainSubInput {
  sub_account: string;
  sub_account_type: string;
  currency: string;
  amount: string;
  direction: string;
  client_order_id: string;
}

export function mainSubTransfer(db: DB, mainUid: string, t: MainSubInput, nowSec: number): { tx_id: number } {
  return db.transaction(() => {
    if (t.client_order_id !== '' && !CLIENT_ORDER_ID_RE.test(t.client_order_id)) {
      throw new ApiError('INVALID_CLIENT_ORDER_ID', 'client_order_id must be 1 to 64 letters, digits, "-" or "_"');
    }
    if (
      t.client_order_id !== '' &&
      stmt(db, 'SELECT 1 FROM transfers WHERE main_uid = ? AND client_order_id = ?').get(mainUid, t.client_order_id)
    ) {
      throw new ApiError('ORDER_EXISTS', `client_order_id ${t.client_order_id} was used already; look it up with GET /wallet/order_status`);
    }
    if (t.direction !== 'to' && t.direction !== 'from') throw new ApiError('INVALID_PARAM_VALUE', 'direction must be "to" or "from"');
    if (!(SUB_ACCOUNT_TYPES as readonly string[]).includes(t.sub_account_type)) {
      throw new ApiError('INVALID_PARAM_VALUE', `sub_account_type must be one of ${SUB_ACCOUNT_TYPES.join(', ')}`);
    }
    requireCurrency(db, t.currency);
    const sub = subAccount(db, mainUid, t.sub_account);
    if (sub.locked) throw new ApiError('SUB_ACCOUNT_LOCKED', `sub-account ${sub.uid} is locked`);
    const subPocket = typedPocket(sub.uid, t.sub_account_type, t.currency);
    const [from, to] = t.direction === 'to' ? [spot(mainUid), subPocket] : [subPocket, spot(mainUid)];
    const amount = new Dec(t.amount);
    const txId = insertTransfer(db, {
      kind: 'main_sub',
      main_uid: mainUid,
      from,
      to,
      sub_account: sub.uid,
      sub_account_type: t.sub_account_type,
      direction: t.direction,
      currency: t.currency,
      amount,
      client_order_id: t.client_order_id,
      ts: nowSec,
    });
    transfer(db, from, to, t.currency, amount, 'sub_transfer', `tx${txId}`, nowSec);
    return { tx_id: txId };
  })();
}

export interface SubToSubInput {
  currency: string;
  sub_account_from: string;
  sub_account_from_type: string;
  sub_account_to: string;
  sub_account_to_type: string;
  amount: string;
}

export function subToSubTransfer(
  db: DB,
  caller: { uid: string; mainUid: string; isSub: boolean },
  t: SubToSubInput,
  nowSec: number,
): { tx_id: number } {
  return db.transaction(() => {
    if (caller.isSub && caller.uid !== t.sub_account_from)
      throw new ApiError('FORBIDDEN', 'a sub-account key may only move funds out of its own sub-account');
    for (const type of [t.sub_account_from_type, t.sub_account_to_type]) {
      if (!(SUB_TO_SUB_TYPES as readonly string[]).includes(type))
        throw new ApiError('INVALID_PARAM_VALUE', `account type must be one of ${SUB_TO_SUB_TYPES.join(', ')}`);
    }
    requireCurrency(db, t.currency);
    const a = subAccount(db, caller.mainUid, t.sub_account_from);
    const b = subAccount(db, caller.mainUid, t.sub_account_to);
    for (const s of [a, b]) if (s.locked) throw new ApiError('SUB_ACCOUNT_LOCKED', `sub-account ${s.uid} is locked`);
    if (a.uid === b.uid && t.sub_account_from_type === t.sub_account_to_type)
      throw new ApiError('INVALID_PARAM_VALUE', 'source and destination are the same account');
    const from = typedPocket(a.uid, t.sub_account_from_type, t.currency);
    const to = typedPocket(b.uid, t.sub_account_to_type, t.currency);
    const amount = new Dec(t.amount);
    const txId = insertTransfer(db, { kind: 'sub_sub', main_uid: caller.mainUid, from, to, currency: t.currency, amount, ts: nowSec });
    transfer(db, from, to, t.currency, amount, 'sub_to_sub', `tx${txId}`, nowSec);
    return { tx_id: txId };
  })();
}

interface TransferRow {
  tx_id: number;
  kind: string;
  from_uid: string;
  to_uid: string;
  client_order_id: string;
  status: string;
}

/** GET /wallet/order_status: a transfer of this main account (a sub key sees only its own), by client_order_id and/or tx_id. */
export function transferStatus(
  db: DB,
  caller: { uid: string; mainUid: string; isSub: boolean },
  clientOrderId: string | undefined,
  txId: string | undefined,
) {
  let row: TransferRow | undefined;
  if (clientOrderId !== undefined) {
    row = stmt(db, 'SELECT * FROM transfers WHERE main_uid = ? AND client_order_id = ?').get(caller.mainUid, clientOrderId) as
      TransferRow | undefined;
    if (row && txId !== undefined && String(row.tx_id) !== txId) row = undefined;
  } else {
    row = /^\d{1,19}$/.test(txId!)
      ? (stmt(db, 'SELECT * FROM transfers WHERE main_uid = ? AND tx_id = ?').get(caller.mainUid, Number(txId)) as TransferRow | undefined)
      : undefined;
  }
  if (row && caller.isSub && row.from_uid !== caller.uid && row.to_uid !== caller.uid) row = undefined;
  if (!row) throw new ApiError('ORDER_NOT_FOUND', 'no transfer with this id');
  return { tx_id: String(row.tx_id), status: row.status };
}

export interface PushInput {
  receive_uid: string;
  currency: string;
  amount: string;
}

/** §4.2 POST /withdrawals/push: main spot to another main spot, settled at once (status RECEIVED). */
export function pushTransfer(db: DB, senderUid: string, t: PushInput, nowSec: number): { id: number } {
  return db.transaction(() => {
    requireCurrency(db, t.currency);
    const receiver = account(db, t.receive_uid);
    if (!receiver || receiver.uid === HOUSE_UID) throw new ApiError('RECEIVE_ERROR', `no user ${t.receive_uid} can receive this transfer`);
    if (receiver.main_uid !== null)
      throw new ApiError('RECEIVE_ERROR', 'the receiver is a sub-account; UID transfers go between main accounts');
    if (receiver.uid === senderUid) throw new ApiError('INVALID_PARAM_VALUE', 'receive_uid is the sender itself');
    const amount = new Dec(t.amount);
    const info = stmt(
      db,
      `INSERT INTO uid_transfers (push_uid, receive_uid, currency, amount, create_time, status) VALUES (?, ?, ?, ?, ?, 'RECEIVED')`,
    ).run(senderUid, receiver.uid, t.currency, fmt(amount), Math.floor(nowSec));
    const id = Number(info.lastInsertRowid);
    applyMoves(
      db,
      [
        { pocket: spot(senderUid), currency: t.currency, delta: amount.neg() },
        { pocket: spot(receiver.uid), currency: t.currency, delta: amount },
      ],
      'uid_transfer',
      `push${id}`,
      nowSec,
    );
    return { id };
  })();
}
