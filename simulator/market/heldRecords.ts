import { heldIn, stmt, type DB } from '../db.ts';
import { placesOf, type FillRow, type OrderRec, type Scales } from './records.ts';
import { bigText } from './scaled.ts';

// The rows an open batch of orders writes (db.ts inBatch): orders, both sides of each trade, and the
// pairs' last prices, held in memory and written when the batch commits, or before anything else uses the
// store (writeHeld). Each order's row is written once per batch, with its latest figures: a resting order
// that a later order of the same batch fills is one INSERT, not an INSERT and an UPDATE. An order runs
// no statement of its own, so it needs no savepoint: what it would write joins the batch only when it
// has succeeded (RecordWrites.hold), and one that fails leaves nothing behind.

const ORDER_COLUMNS =
  'id, uid, text, pair, type, account, side, amount, price, tif, left_amount, filled_amount, filled_total, fee, fee_currency, locked, stp_id, stp_act, status, finish_as, create_ms, update_ms';
const INSERT_ORDER = `INSERT INTO spot_orders (${ORDER_COLUMNS}) VALUES (${Array(22).fill('?').join(', ')})`;
const UPDATE_ORDER = `UPDATE spot_orders SET left_amount = ?, filled_amount = ?, filled_total = ?, fee = ?, locked = ?, status = ?,
  finish_as = ?, update_ms = ? WHERE id = ?`;
const FILL_COLUMNS = 'trade_id, uid, order_id, pair, side, role, amount, price, fee, fee_currency, text, ts_ms';
const SIDE_VALUES = (role: string) => `?, ?, ?, ?, ?, '${role}', ?, ?, ?, ?, ?, ?`;
const INSERT_FILLS = `INSERT INTO spot_fills (${FILL_COLUMNS}) VALUES (${SIDE_VALUES('taker')}), (${SIDE_VALUES('maker')})`;
const PAIR_LAST =
  'INSERT INTO pair_last (pair, price, ts_ms) VALUES (?, ?, ?) ON CONFLICT(pair) DO UPDATE SET price = excluded.price, ts_ms = excluded.ts_ms';

type OrderRow = [
  id: number,
  uid: string,
  text: string,
  pair: string,
  type: string,
  account: string,
  side: string,
  amount: string,
  price: string,
  tif: string,
  left: string,
  filledAmount: string,
  filledTotal: string,
  fee: string,
  feeCurrency: string,
  locked: string,
  stpId: number,
  stpAct: string,
  status: string,
  finishAs: string,
  createMs: number,
  updateMs: number,
];

/** The order's stored row as it is now: a copy, so that later changes of the record do not reach it. */
function orderRow(o: OrderRec, pair: Scales): OrderRow {
  const at = placesOf(pair, o.side);
  return [
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
    bigText(o.filledAmount, at.base),
    bigText(o.filledTotal, at.quote),
    bigText(o.fee, at.fee),
    o.feeCurrency,
    bigText(o.locked, at.locked),
    o.stpId,
    o.stpAct,
    o.status,
    o.finishAs,
    o.createMs,
    o.updateMs,
  ];
}

/** Both sides of a trade, written as one statement. */
interface Trade {
  taker: FillRow;
  maker: FillRow;
}

interface HeldOrder {
  /** Not yet in the store: written with INSERT, else UPDATE. */
  isNew: boolean;
  row: OrderRow;
}

interface LastPrice {
  pair: string;
  price: string;
  ms: number;
  /** The base currency whose USDT valuation follows the pair's price; null for other quotes. */
  valued: string | null;
}

/** What one placement or cancellation writes, until it has succeeded. */
export class RecordWrites {
  private readonly orders: [number, HeldOrder][] = [];
  private readonly fills: Trade[] = [];
  private readonly lasts: LastPrice[] = [];

  /** The order's row as it is now; `isNew` for an order this placement creates. */
  order(o: OrderRec, pair: Scales, isNew: boolean): void {
    this.orders.push([o.id, { isNew, row: orderRow(o, pair) }]);
  }

  /** Both sides of a trade, taker first. */
  trade(taker: FillRow, maker: FillRow): void {
    this.fills.push({ taker, maker });
  }

  last(pair: string, price: string, ms: number, valued: string | null): void {
    this.lasts.push({ pair, price, ms, valued });
  }

  /** Joins the open batch's rows; the last step of a placement, after which nothing of it can fail. */
  hold(db: DB): void {
    const h = heldOf(db);
    for (const [id, o] of this.orders) {
      const before = h.orders.get(id);
      if (before) before.row = o.row;
      else h.orders.set(id, o);
    }
    for (const f of this.fills) h.fills.push(f);
    for (const l of this.lasts) h.lasts.set(l.pair, l);
  }
}

class HeldRecords {
  /** By order id, in the order first written. */
  readonly orders = new Map<number, HeldOrder>();
  readonly fills: Trade[] = [];
  readonly lasts = new Map<string, LastPrice>();

  constructor(private readonly db: DB) {}

  // Rows are bound as arguments, not as arrays: better-sqlite3 reads an array's items one call at a time.
  write(): void {
    const { db } = this;
    for (const { isNew, row } of this.orders.values()) {
      if (isNew) stmt(db, INSERT_ORDER).run(...row);
      else stmt(db, UPDATE_ORDER).run(row[10], row[11], row[12], row[13], row[15], row[18], row[19], row[21], row[0]);
    }
    for (const { taker: t, maker: m } of this.fills)
      stmt(db, INSERT_FILLS).run(
        t.trade_id,
        t.uid,
        t.order_id,
        t.pair,
        t.side,
        t.amount,
        t.price,
        t.fee,
        t.fee_currency,
        t.text,
        t.ts_ms,
        m.trade_id,
        m.uid,
        m.order_id,
        m.pair,
        m.side,
        m.amount,
        m.price,
        m.fee,
        m.fee_currency,
        m.text,
        m.ts_ms,
      );
    for (const l of this.lasts.values()) {
      stmt(db, PAIR_LAST).run(l.pair, l.price, l.ms);
      if (l.valued !== null) stmt(db, 'UPDATE prices SET usdt = ? WHERE currency = ?').run(l.price, l.valued);
    }
  }
}

const held = new WeakMap<DB, HeldRecords>();

function heldOf(db: DB): HeldRecords {
  return heldIn(held, db, (d) => new HeldRecords(d));
}
