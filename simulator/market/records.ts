import type { SpotOrder, SpotTrade } from '../../shared/api/orders.ts';
import { stmt, type DB } from '../db.ts';
import type { Side, TimeInForce } from './engine.ts';
import { bigOf, bigText, pow10 } from './scaled.ts';

// Order and trade records of the market: the stored row, the in-memory record of an order, and the
// wire shapes of the live service's documentation (shared/api/orders.ts). An order's money is held as
// integers at its pair's places (scaled.ts) and written as decimal strings.

/** The places of a pair: amount_precision and precision. */
export interface Scales {
  ap: number;
  pp: number;
}

/** Fee rates are whole tenths of a percent (0.2%), so a fee has 3 places more than what it is taken from. */
export const FEE_PLACES = 3;

/** Places of an order's money: base amounts, quote totals, what it locks and its fee. */
export function placesOf(p: Scales, side: Side): { base: number; quote: number; locked: number; fee: number } {
  const quote = p.pp + p.ap;
  return side === 'buy'
    ? { base: p.ap, quote, locked: quote, fee: p.ap + FEE_PLACES }
    : { base: p.ap, quote, locked: p.ap, fee: quote + FEE_PLACES };
}

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
  /** Base filled, at the pair's amount places. */
  filledAmount: bigint;
  /** Quote filled, at price + amount places. */
  filledTotal: bigint;
  /** At placesOf(…).fee. */
  fee: bigint;
  feeCurrency: string;
  /** At placesOf(…).locked. */
  locked: bigint;
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

function stored(r: Row, column: keyof Row, places: number): bigint {
  const n = bigOf(String(r[column]), places);
  if (n === null) throw new Error(`spot order ${r.id}: stored ${column} ${String(r[column])} has more than ${places} decimal places`);
  return n;
}

export function fromRow(r: Row, pairs: ReadonlyMap<string, Scales>): OrderRec {
  const pair = pairs.get(r.pair);
  if (!pair) throw new Error(`spot order ${r.id} is in ${r.pair}, which the Sandbox does not list`);
  const at = placesOf(pair, r.side as Side);
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
    filledAmount: stored(r, 'filled_amount', at.base),
    filledTotal: stored(r, 'filled_total', at.quote),
    fee: stored(r, 'fee', at.fee),
    feeCurrency: r.fee_currency,
    locked: stored(r, 'locked', at.locked),
    stpId: r.stp_id,
    stpAct: r.stp_act,
    status: r.status as OrderRec['status'],
    finishAs: r.finish_as,
    createMs: r.create_ms,
    updateMs: r.update_ms,
  };
}

export function loadOrder(db: DB, id: number, pairs: ReadonlyMap<string, Scales>): OrderRec | undefined {
  const r = stmt(db, 'SELECT * FROM spot_orders WHERE id = ?').get(id) as Row | undefined;
  return r && fromRow(r, pairs);
}

export function openRows(db: DB, pairs: ReadonlyMap<string, Scales>): OrderRec[] {
  return (stmt(db, "SELECT * FROM spot_orders WHERE status = 'open' ORDER BY id").all() as Row[]).map((r) => fromRow(r, pairs));
}

export function listOrders(
  db: DB,
  pairs: ReadonlyMap<string, Scales>,
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
  return rows.map((r) => fromRow(r, pairs));
}

function seconds(ms: number): string {
  return String(Math.floor(ms / 1000));
}

/** Places of avg_deal_price beyond the pair's price places. */
const AVG_EXTRA = 4;

/** Quote filled ÷ base filled at the price's places + 4, half up (the live service's avg_deal_price). */
function averagePrice(o: OrderRec, p: Scales): string {
  if (o.filledAmount === 0n) return '0';
  // filledTotal has pp + ap places and filledAmount ap, so their quotient has pp places.
  const num = o.filledTotal * pow10(AVG_EXTRA) * 2n + o.filledAmount;
  return bigText(num / (o.filledAmount * 2n), p.pp + AVG_EXTRA);
}

/** The live service's Order shape. */
export function orderWire(o: OrderRec, p: Scales, quote: string): SpotOrder {
  const at = placesOf(p, o.side);
  const total = bigText(o.filledTotal, at.quote);
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
    filled_amount: bigText(o.filledAmount, at.base),
    fill_price: total,
    filled_total: total,
    avg_deal_price: averagePrice(o, p),
    fee: bigText(o.fee, at.fee),
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

const q = JSON.stringify;

/**
 * JSON.stringify(orderWire(o, p, quote)), character for character, written out without building the
 * object first: a placement answers it, and building and walking 33 fields cost more than writing them.
 * Strings an order brings or the store holds go through JSON.stringify; the market's own words (status,
 * side, finish_as…), numbers and the decimals bigText writes need no escaping and go in as they are.
 */
export function orderJson(o: OrderRec, p: Scales, quote: string): string {
  const at = placesOf(p, o.side);
  const total = `"${bigText(o.filledTotal, at.quote)}"`;
  return (
    `{"id":"${o.id}","text":${q(o.text)},"amend_text":"-","create_time":"${seconds(o.createMs)}","update_time":"${seconds(o.updateMs)}",` +
    `"create_time_ms":${o.createMs},"update_time_ms":${o.updateMs},"status":"${o.status}","currency_pair":${q(o.pair)},` +
    `"type":"${o.type}","account":"${o.account}","side":"${o.side}","amount":${q(o.amount)},"price":${q(o.price)},` +
    `"time_in_force":"${o.tif}","iceberg":"0","left":${q(o.left)},"filled_amount":"${bigText(o.filledAmount, at.base)}",` +
    `"fill_price":${total},"filled_total":${total},"avg_deal_price":"${averagePrice(o, p)}","fee":"${bigText(o.fee, at.fee)}",` +
    `"fee_currency":${q(o.feeCurrency)},"point_fee":"0","gt_fee":"0","gt_maker_fee":"0","gt_taker_fee":"0","gt_discount":false,` +
    `"rebated_fee":"0","rebated_fee_currency":${q(quote)},"stp_id":${o.stpId},"stp_act":"${o.stpAct}","finish_as":"${o.finishAs}"}`
  );
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
