import type Decimal from 'decimal.js';
import { Dec } from '../../shared/money.ts';
import { inBatch, writeHeld, type DB } from '../db.ts';
import { ApiError } from '../errors.ts';
import { HOUSE_UID, spot, type Pocket } from '../ledger.ts';
import { Book, EngineRefusal, type EngineFinish, type Side, type StpAct, type TimeInForce } from './engine.ts';
import { Deltas } from './funds.ts';
import { RecordWrites } from './heldRecords.ts';
import { FEE_PLACES, openRows, placesOf, type FillRow, type OrderRec } from './records.ts';
import { bigText, fromScaled, toScaled } from './scaled.ts';

// The Sandbox's spot market: one engine book per pair, kept in memory and rebuilt from the stored open
// orders, with every order's money in the ledger. Orders arriving together share a batch (inBatch in
// db.ts): each locks, matches and settles its fills with fees in memory, and what it writes joins the
// batch's held rows and balances (heldRecords.ts, funds.ts) only once it has succeeded; the batch writes
// them when it commits. If anything fails after the book moved, the in-memory market is dropped and
// rebuilt from the store, which holds nothing of the failed order, so the two never disagree.

/**
 * One fee schedule for every user, as GET /wallet/fee answers (VIP 0): maker and taker 0.2%, in units
 * of 10^-FEE_PLACES (records.ts), so that a fee is an integer product.
 */
const MAKER_FEE = 2n;
const TAKER_FEE = 2n;
const FEE_SCALE = 10n ** BigInt(FEE_PLACES);

export interface PairInfo {
  id: string;
  base: string;
  quote: string;
  /** amount_precision and precision of the pair (§4.4 currency_pairs). */
  ap: number;
  pp: number;
  minBase: Decimal;
  minQuote: Decimal;
  maxQuote: Decimal;
  /** The same limits as integers: lots (rounded up), and notional units (rounded up, and down for the maximum). */
  minLots: number;
  minUnits: number;
  maxUnits: number;
}

export const MAX_QUOTE_AMOUNT = '5000000';

export interface PlaceRequest {
  pair: PairInfo;
  side: Side;
  type: 'limit' | 'market';
  account: 'spot' | 'margin';
  tif: TimeInForce;
  text: string;
  stpAct: StpAct | null;
  /** As sent, normalised: base amount, or quote funds for a market buy. */
  amount: string;
  /** '0' for market orders. */
  price: string;
  /** Lots, or notional units for a market buy. */
  units: number;
  ticks: number;
}

const STATUS_OF: Record<EngineFinish, OrderRec['status']> = {
  open: 'open',
  filled: 'closed',
  ioc: 'cancelled',
  stp: 'cancelled',
  depth_not_enough: 'cancelled',
};

export function pocketOf(o: { uid: string; account: string; pair: string }): Pocket {
  return o.account === 'margin' ? { uid: o.uid, type: 'margin', subKey: o.pair } : spot(o.uid);
}

const markets = new WeakMap<DB, Market>();

export function marketOf(db: DB): Market {
  let m = markets.get(db);
  if (!m) markets.set(db, (m = new Market(db)));
  return m;
}

/** Keeps a loaded market's STP groups in step with the store after the admin API changed one. */
export function noteStpGroup(db: DB, uid: string, stpId: number): void {
  const m = markets.get(db);
  if (!m) return;
  if (stpId === 0) m.stpGroups.delete(uid);
  else m.stpGroups.set(uid, stpId);
}

/** Drops the in-memory market (after a reset, or a failure mid-order); the next call rebuilds it. */
export function forgetMarket(db: DB): void {
  markets.delete(db);
}

export class Market {
  private readonly books = new Map<string, Book>();
  /** Resting orders' records, by id. */
  readonly open = new Map<number, OrderRec>();
  readonly pairs = new Map<string, PairInfo>();
  /** Per pair: when the book last changed (ms) and a change counter (order_book `with_id`). */
  readonly changed = new Map<string, { ms: number; id: number }>();
  /** Self-trade prevention group per uid (§3.5), from stp_members. */
  readonly stpGroups = new Map<string, number>();
  private nextOrder: number;
  private nextTrade: number;
  /** Last trade price per pair as stored in pair_last (ticks), so that an unchanged price is not rewritten. */
  private readonly lastTicks = new Map<string, number>();
  private readonly placeTx: (uid: string, req: PlaceRequest, nowSec: number, stpId: number, onMove: () => void) => OrderRec;
  private readonly cancelTx: (orders: OrderRec[], nowSec: number, onMove: () => void) => OrderRec[];

  constructor(private readonly db: DB) {
    this.placeTx = (uid: string, req: PlaceRequest, nowSec: number, stpId: number, onMove: () => void) =>
      this.placeInTx(uid, req, nowSec, stpId, onMove);
    this.cancelTx = (orders: OrderRec[], nowSec: number, onMove: () => void) => this.cancelInTx(orders, nowSec, onMove);
    // A market rebuilt during a batch (after a failed order) must see the batch's orders.
    writeHeld(db);
    for (const p of db.prepare('SELECT * FROM currency_pairs').all() as {
      id: string;
      base: string;
      quote: string;
      amount_precision: number;
      precision: number;
      min_base: string;
      min_quote: string;
    }[]) {
      this.pairs.set(p.id, {
        id: p.id,
        base: p.base,
        quote: p.quote,
        ap: p.amount_precision,
        pp: p.precision,
        minBase: new Dec(p.min_base),
        minQuote: new Dec(p.min_quote),
        maxQuote: new Dec(MAX_QUOTE_AMOUNT),
        minLots: new Dec(p.min_base).times(new Dec(10).pow(p.amount_precision)).ceil().toNumber(),
        minUnits: new Dec(p.min_quote)
          .times(new Dec(10).pow(p.amount_precision + p.precision))
          .ceil()
          .toNumber(),
        maxUnits: new Dec(MAX_QUOTE_AMOUNT)
          .times(new Dec(10).pow(p.amount_precision + p.precision))
          .floor()
          .toNumber(),
      });
      this.books.set(p.id, new Book());
    }
    for (const o of openRows(db, this.pairs)) {
      const pair = this.pairs.get(o.pair)!;
      this.book(o.pair).restore({
        id: o.id,
        owner: o.uid,
        side: o.side,
        price: scaledOf(o.price, pair.pp),
        left: scaledOf(o.left, pair.ap),
        stpId: o.stpId,
      });
      this.open.set(o.id, o);
    }
    for (const r of db.prepare('SELECT uid, stp_id FROM stp_members').all() as { uid: string; stp_id: number }[])
      this.stpGroups.set(r.uid, r.stp_id);
    this.nextOrder = ((db.prepare('SELECT MAX(id) AS m FROM spot_orders').get() as { m: number | null }).m ?? 0) + 1;
    this.nextTrade = ((db.prepare('SELECT MAX(trade_id) AS m FROM spot_fills').get() as { m: number | null }).m ?? 0) + 1;
  }

  book(pair: string): Book {
    return this.books.get(pair)!;
  }

  private touch(pair: string, ms: number): void {
    const c = this.changed.get(pair);
    this.changed.set(pair, { ms, id: (c?.id ?? 0) + 1 });
  }

  /** Places an order for `uid`; answers its record after matching. */
  place(uid: string, req: PlaceRequest, nowSec: number): OrderRec {
    const stpId = this.stpGroups.get(uid) ?? 0;
    if (req.stpAct && stpId === 0) {
      throw new ApiError(
        'INVALID_PARAM_VALUE',
        'stp_act needs membership in a self-trade prevention group; this account is in none (§3.5)',
      );
    }
    let moved = false;
    try {
      return inBatch(this.db, this.placeTx, uid, req, nowSec, stpId, () => {
        moved = true;
      });
    } catch (e) {
      if (moved) forgetMarket(this.db);
      throw e;
    }
  }

  private placeInTx(uid: string, req: PlaceRequest, nowSec: number, stpId: number, onMove: () => void): OrderRec {
    const { pair } = req;
    const ms = Math.floor(nowSec * 1000);
    const pocket = pocketOf({ uid, account: req.account, pair: pair.id });
    const buy = req.side === 'buy';
    const lockCurrency = buy ? pair.quote : pair.base;
    const at = placesOf(pair, req.side);
    // A limit buy locks price × amount; a market buy its funds; a sell its amount (each at its places).
    const lock = BigInt(buy && req.type === 'limit' ? req.ticks * req.units : req.units);
    const deltas = new Deltas();
    const writes = new RecordWrites();
    deltas.lock(this.db, pocket, lockCurrency, lock, at.locked);

    const taker: OrderRec = {
      id: this.nextOrder,
      uid,
      text: req.text,
      pair: pair.id,
      type: req.type,
      account: req.account,
      side: req.side,
      amount: req.amount,
      price: req.price,
      tif: req.tif,
      left: req.amount,
      filledAmount: 0n,
      filledTotal: 0n,
      fee: 0n,
      feeCurrency: buy ? pair.base : pair.quote,
      locked: lock,
      stpId,
      stpAct: req.stpAct ?? '-',
      status: 'open',
      finishAs: 'open',
      createMs: ms,
      updateMs: ms,
    };
    let result;
    try {
      result = this.book(pair.id).place({
        id: taker.id,
        owner: uid,
        side: req.side,
        type: req.type,
        price: req.ticks,
        amount: req.units,
        tif: req.tif,
        stpId,
        stpAct: req.stpAct,
      });
    } catch (e) {
      if (e instanceof EngineRefusal) throw new ApiError(e.label, e.message);
      throw e;
    }
    this.nextOrder++;
    onMove();
    const quotePlaces = pair.pp + pair.ap;
    for (const f of result.fills) {
      const maker = this.open.get(f.maker.id)!;
      const base = BigInt(f.lots);
      const quote = BigInt(f.lots * f.price);
      const amount = fromScaled(f.lots, pair.ap);
      const price = fromScaled(f.price, pair.pp);
      const tradeId = this.nextTrade++;
      const fill: Fill = { pair, tradeId, base, quote, amount, price, ms };
      writes.trade(settle(fill, taker, 'taker', deltas), settle(fill, maker, 'maker', deltas));
      maker.left = fromScaled(f.maker.left, pair.ap);
      if (f.maker.left === 0) this.finish(maker, 'closed', 'filled', deltas, writes);
      else writes.order(maker, pair, false);
    }
    for (const m of result.stpCancelled) {
      const maker = this.open.get(m.id)!;
      maker.updateMs = ms;
      this.finish(maker, 'cancelled', 'stp', deltas, writes);
    }

    taker.left = req.type === 'market' && buy ? fromScaled(result.left, quotePlaces) : fromScaled(result.left, pair.ap);
    taker.status = STATUS_OF[result.finishAs];
    taker.finishAs = result.finishAs;
    // What a resting order keeps locked: a buy its limit price × lots left, a sell its lots left. The rest
    // (price improvement, or everything once finished) goes back to available.
    const keep = !result.rested ? 0n : BigInt(buy ? req.ticks * result.left : result.left);
    const release = taker.locked - keep;
    if (release !== 0n) deltas.add(pocket, lockCurrency, release, -release, at.locked);
    taker.locked = keep;
    writes.order(taker, pair, true);
    const last = result.fills.length > 0 ? result.fills[result.fills.length - 1]!.price : undefined;
    // The pair's last trade price moves its ticker and, for a USDT pair, the base currency's valuation.
    if (last !== undefined && this.lastTicks.get(pair.id) !== last) {
      writes.last(pair.id, fromScaled(last, pair.pp), ms, pair.quote === 'USDT' ? pair.base : null);
    }
    // Last, in this order: the balances may still refuse (a bug of the market); then nothing can fail.
    deltas.apply(this.db);
    writes.hold(this.db);
    if (last !== undefined) this.lastTicks.set(pair.id, last);
    if (result.rested) this.open.set(taker.id, taker);
    if (result.fills.length > 0 || result.rested || result.stpCancelled.length > 0) this.touch(pair.id, ms);
    return taker;
  }

  /** Takes an order off the book and releases what it held. */
  private finish(o: OrderRec, status: OrderRec['status'], finishAs: string, deltas: Deltas, writes: RecordWrites): void {
    o.status = status;
    o.finishAs = finishAs;
    const pair = this.pairs.get(o.pair)!;
    if (o.locked !== 0n)
      deltas.add(pocketOf(o), o.side === 'buy' ? pair.quote : pair.base, o.locked, -o.locked, placesOf(pair, o.side).locked);
    o.locked = 0n;
    this.open.delete(o.id);
    writes.order(o, pair, false);
  }

  /** Cancels resting orders of their owner; answers their records. */
  cancel(orders: OrderRec[], nowSec: number): OrderRec[] {
    if (orders.length === 0) return [];
    let moved = false;
    try {
      return inBatch(this.db, this.cancelTx, orders, nowSec, () => {
        moved = true;
      });
    } catch (e) {
      if (moved) forgetMarket(this.db);
      throw e;
    }
  }

  private cancelInTx(orders: OrderRec[], nowSec: number, onMove: () => void): OrderRec[] {
    const ms = Math.floor(nowSec * 1000);
    const deltas = new Deltas();
    const writes = new RecordWrites();
    for (const o of orders) {
      this.book(o.pair).cancel(o.id);
      onMove();
      o.updateMs = ms;
      this.finish(o, 'cancelled', 'cancelled', deltas, writes);
      this.touch(o.pair, ms);
    }
    deltas.apply(this.db);
    writes.hold(this.db);
    return orders;
  }
}

/** One trade of an order, as both of its sides settle it. */
interface Fill {
  pair: PairInfo;
  tradeId: number;
  /** Lots, and notional units (ticks × lots). */
  base: bigint;
  quote: bigint;
  /** The same as decimal strings, and the price. */
  amount: string;
  price: string;
  ms: number;
}

const HOUSE = spot(HOUSE_UID);

/**
 * One side of a trade: its money moves (the buyer pays quote from its lock and gets base less the fee;
 * the seller the other way round; the fee goes to the house), its order's figures, and its fill row.
 * A function of the module, not a closure made per fill: tsx names every closure it makes (keepNames).
 */
function settle(f: Fill, o: OrderRec, role: 'taker' | 'maker', deltas: Deltas): FillRow {
  const { pair } = f;
  const p = pocketOf(o);
  const quotePlaces = pair.pp + pair.ap;
  const isBuy = o.side === 'buy';
  const paid = isBuy ? f.quote : f.base;
  const got = isBuy ? f.base : f.quote;
  const gotPlaces = (isBuy ? pair.ap : quotePlaces) + FEE_PLACES;
  const gotCurrency = isBuy ? pair.base : pair.quote;
  const fee = got * (role === 'taker' ? TAKER_FEE : MAKER_FEE);
  deltas.add(p, isBuy ? pair.quote : pair.base, 0n, -paid, isBuy ? quotePlaces : pair.ap);
  deltas.add(p, gotCurrency, got * FEE_SCALE - fee, 0n, gotPlaces);
  deltas.add(HOUSE, gotCurrency, fee, 0n, gotPlaces);
  o.locked -= paid;
  o.filledAmount += f.base;
  o.filledTotal += f.quote;
  o.fee += fee;
  o.updateMs = f.ms;
  return {
    trade_id: f.tradeId,
    uid: o.uid,
    order_id: o.id,
    pair: pair.id,
    side: o.side,
    role,
    amount: f.amount,
    price: f.price,
    fee: bigText(fee, gotPlaces),
    fee_currency: gotCurrency,
    text: o.text,
    ts_ms: f.ms,
  };
}

function scaledOf(s: string, places: number): number {
  const n = toScaled(s, places);
  if (n === null) throw new Error(`stored amount ${s} does not fit ${places} places`);
  return n;
}
