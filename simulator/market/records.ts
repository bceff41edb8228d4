import Decimal from 'decimal.js';
import type { SpotOrder, SpotTrade } from '../../shared/api/orders.ts';
import { Dec, fmt } from '../../shared/money.ts';
import { stmt, type DB } from '../db.ts';
import type { Side, TimeInForce } from './engine.ts';

// Order and trade records of the market: the stored row, the in-memory record of an order, and the
// wire shapes of the live service's documentation (shared/api/orders.ts).

export interface OrderRec {
  id: number;
  uid: string;
  text: string;
  pair: string;
  type: 'limit' | 'market';
  account: 'spot' | 'margin';
  side: Side;
  amount: string;
  price: string;
  tif: TimeInForce;
  left: string;
  filledAmount: Decimal;
  filledTotal: Decimal;
  fee: Decimal;
  feeCurrency: string;
  locked: Decimal;
  stpId: number;
  stpAct: string;
  status: 'open' | 'closed' | 'cancelled';
  finishAs: string;
  createMs: number;
  updateMs: number;
}

interface Row {
  id: number;
  uid: string;
  text: string;
  pair: string;
  type: string;
  account: string;
  side: string;
  amount: string;
  price: string;
  tif: string;
  left_amount: string;
  filled_amount: string;
  filled_total: string;
  fee: string;
  fee_currency: string;
  locked: string;
  stp_id: number;
  stp_act: string;
  status: string;
  finish_as: string;
  create_ms: number;
  update_ms: number;
}

export function fromRow(r: Row): OrderRec {
  return {
    id: r.id,
    uid: r.uid,
    text: r.text,
    pair: r.pair,
    type: r.type as OrderRec['type'],
    account: r.account as OrderRec['account'],
    side: r.side as Side,
    amount: r.amount,
    price: r.price,
    tif: r.tif as TimeInForce,
    left: r.left_amount,
    filledAmount: new Dec(r.filled_amount),
    filledTotal: new Dec(r.filled_total),
    fee: new Dec(r.fee),
    feeCurrency: r.fee_currency,
    locked: new Dec(r.locked),
    stpId: r.stp_id,
    stpAct: r.stp_act,
    status: r.status as OrderRec['status'],
    finishAs: r.finish_as,
    createMs: r.create_ms,
    updateMs: r.update_ms,
  };
}

export function insertOrder(db: DB, o: OrderRec): void {
  stmt(
    db,
    `INSERT INTO spot_orders (id, uid, text, pair, type, account, side, amount, price, tif, left_amount, filled_amount, filled_total,
    fee, fee_currency, locked, stp_id, stp_act, status, finish_as, create_ms, update_ms) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
  ).run(
    o.id,
    o.uid,
    o.text,
    o.pair,
    o.type,
    o.account,
    o.side,
    o.amount,
    o.price,
    o.tif,
    o.left,
    fmt(o.filledAmount),
    fmt(o.filledTotal),
    fmt(o.fee),
    o.feeCurrency,
    fmt(o.locked),
    o.stpId,
    o.stpAct,
    o.status,
    o.finishAs,
    o.createMs,
    o.updateMs,
  );
}

export function updateOrder(db: DB, o: OrderRec): void {
  stmt(
    db,
    `UPDATE spot_orders SET left_amount = ?, filled_amount = ?, filled_total = ?, fee = ?, locked = ?, status = ?, finish_as = ?,
    update_ms = ? WHERE id = ?`,
  ).run(o.left, fmt(o.filledAmount), fmt(o.filledTotal), fmt(o.fee), fmt(o.locked), o.status, o.finishAs, o.updateMs, o.id);
}

export function loadOrder(db: DB, id: number): OrderRec | undefined {
  const r = stmt(db, 'SELECT * FROM spot_orders WHERE id = ?').get(id) as Row | undefined;
  return r && fromRow(r);
}

export function openRows(db: DB): OrderRec[] {
  return (stmt(db, "SELECT * FROM spot_orders WHERE status = 'open' ORDER BY id").all() as Row[]).map(fromRow);
}

export function listOrders(
  db: DB,
  uid: string,
  pair: string,
  open: boolean,
  f: { limit: number; offset: number; account?: string; side?: string; fromMs?: number; toMs?: number },
): OrderRec[] {
  const rows = stmt(
    db,
    `SELECT * FROM spot_orders WHERE uid = ? AND pair = ? AND ${open ? "status = 'open'" : "status != 'open'"}
    AND (? IS NULL OR account = ?) AND (? IS NULL OR side = ?) AND create_ms >= ? AND create_ms <= ? ORDER BY id DESC LIMIT ? OFFSET ?`,
  ).all(
    uid,
    pair,
    f.account ?? null,
    f.account ?? null,
    f.side ?? null,
    f.side ?? null,
    f.fromMs ?? 0,
    f.toMs ?? Number.MAX_SAFE_INTEGER,
    f.limit,
    f.offset,
  ) as Row[];
  return rows.map(fromRow);
}

function seconds(ms: number): string {
  return String(Math.floor(ms / 1000));
}

/** The live service's Order shape. */
export function orderWire(o: OrderRec, pricePlaces: number, quote: string): SpotOrder {
  const filled = o.filledAmount;
  const avg = filled.isZero() ? new Dec(0) : o.filledTotal.div(filled).toDecimalPlaces(pricePlaces + 4, Decimal.ROUND_HALF_UP);
  const total = fmt(o.filledTotal);
  return {
    id: String(o.id),
    text: o.text,
    amend_text: '-',
    create_time: seconds(o.createMs),
    update_time: seconds(o.updateMs),
    create_time_ms: o.createMs,
    update_time_ms: o.updateMs,
    status: o.status,
    currency_pair: o.pair,
    type: o.type,
    account: o.account,
    side: o.side,
    amount: o.amount,
    price: o.price,
    time_in_force: o.tif,
    iceberg: '0',
    left: o.left,
    filled_amount: fmt(filled),
    fill_price: total,
    filled_total: total,
    avg_deal_price: fmt(avg),
    fee: fmt(o.fee),
    fee_currency: o.feeCurrency,
    point_fee: '0',
    gt_fee: '0',
    gt_maker_fee: '0',
    gt_taker_fee: '0',
    gt_discount: false,
    rebated_fee: '0',
    rebated_fee_currency: quote,
    stp_id: o.stpId,
    stp_act: o.stpAct,
    finish_as: o.finishAs,
  };
}

export interface FillRow {
  trade_id: number;
  uid: string;
  order_id: number;
  pair: string;
  side: string;
  role: string;
  amount: string;
  price: string;
  fee: string;
  fee_currency: string;
  text: string;
  ts_ms: number;
}

export function insertFill(db: DB, f: FillRow): void {
  stmt(
    db,
    `INSERT INTO spot_fills (trade_id, uid, order_id, pair, side, role, amount, price, fee, fee_currency, text, ts_ms)
    VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
  ).run(f.trade_id, f.uid, f.order_id, f.pair, f.side, f.role, f.amount, f.price, f.fee, f.fee_currency, f.text, f.ts_ms);
}

export function tradeWire(f: FillRow): SpotTrade {
  return {
    id: String(f.trade_id),
    create_time: seconds(f.ts_ms),
    // Milliseconds with 3 decimal places, as the live service sends it: its API v4 reference shows
    // "create_time_ms": "1548000000123.456" for GET /spot/my_trades and the gate-api SDKs' Trade model
    // says "Trading time, with millisecond precision" (gateio/gateapi-python docs/Trade.md). The Sandbox
    // once sent seconds here ("1795609183.367"), which a desk reading milliseconds placed in 1970.
    create_time_ms: f.ts_ms.toFixed(3),
    currency_pair: f.pair,
    side: f.side as Side,
    role: f.role as 'taker' | 'maker',
    amount: f.amount,
    price: f.price,
    order_id: String(f.order_id),
    fee: f.fee,
    fee_currency: f.fee_currency,
    point_fee: '0',
    gt_fee: '0',
    amend_text: '-',
    sequence_id: String(f.trade_id),
    text: f.text,
  };
}
