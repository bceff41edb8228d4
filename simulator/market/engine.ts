// The matching engine of one currency pair: price priority, then time priority (§1), limit and market
// orders, time in force gtc/ioc/poc/fok, self-trade prevention (§3.5). Pure: no HTTP, no ledger, no
// clock. Prices are integer ticks, amounts integer lots (scaled.ts); a market buy spends "funds" in
// notional units (ticks × lots), as the live service reads a market buy's amount in the quote currency.

export type Side = 'buy' | 'sell';
export type TimeInForce = 'gtc' | 'ioc' | 'poc' | 'fok';
export type StpAct = 'cn' | 'co' | 'cb';
/** finish_as values the engine produces (§2.10 plus the live service's `open`). */
export type EngineFinish = 'open' | 'filled' | 'ioc' | 'stp' | 'depth_not_enough';

export interface RestingOrder {
  readonly id: number;
  readonly owner: string;
  readonly side: Side;
  readonly price: number;
  /** Lots still on the book; 0 once filled or cancelled. */
  left: number;
  readonly stpId: number;
}

export interface Incoming {
  id: number;
  owner: string;
  side: Side;
  type: 'limit' | 'market';
  /** Ticks; ignored for market orders. */
  price: number;
  /** Lots; for a market buy, funds in notional units. */
  amount: number;
  tif: TimeInForce;
  /** 0 when the owner is in no STP group. */
  stpId: number;
  /** The taker's action against its own group; cn when omitted (§3.5). */
  stpAct: StpAct | null;
}

export interface Fill {
  maker: RestingOrder;
  price: number;
  lots: number;
}

export interface PlaceResult {
  fills: Fill[];
  /** Makers cancelled by STP (co, cb): their finish_as is stp. */
  stpCancelled: RestingOrder[];
  filledLots: number;
  filledNotional: number;
  /** Lots not filled (a market buy: funds not spent). */
  left: number;
  rested: boolean;
  finishAs: EngineFinish;
}

/** An order the engine refuses before touching the book: nothing changed. */
export class EngineRefusal extends Error {
  constructor(
    readonly label: 'POC_FILL_IMMEDIATELY' | 'FOK_NOT_FILL',
    message: string,
  ) {
    super(message);
  }
}

class Level {
  /** FIFO; entries before `head` are gone, cancelled entries keep left = 0 until passed. */
  orders: RestingOrder[] = [];
  head = 0;
  /** Lots resting here, and how many orders. */
  total = 0;
  live = 0;
  constructor(readonly price: number) {}

  /** Drops the passed prefix once it is most of the array, so a busy level does not grow forever. */
  compact(): void {
    if (this.head > 32 && this.head * 2 > this.orders.length) {
      this.orders = this.orders.slice(this.head);
      this.head = 0;
    }
  }
}

/**
 * One side of the book. Levels sit in an array sorted so that the best price is last (asks
 * descending, bids ascending): taking the best level is a pop, and new orders near the top of the
 * book are inserted near the end.
 */
class SideBook {
  readonly levels: Level[] = [];
  readonly byPrice = new Map<number, Level>();
  constructor(readonly isBid: boolean) {}

  best(): Level | undefined {
    return this.levels[this.levels.length - 1];
  }

  /** True when a beats b for this side. */
  private better(a: number, b: number): boolean {
    return this.isBid ? a > b : a < b;
  }

  levelFor(price: number): Level {
    let l = this.byPrice.get(price);
    if (l) return l;
    l = new Level(price);
    const ls = this.levels;
    let lo = 0,
      hi = ls.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (this.better(ls[mid]!.price, price)) hi = mid;
      else lo = mid + 1;
    }
    ls.splice(lo, 0, l);
    this.byPrice.set(price, l);
    return l;
  }

  remove(l: Level): void {
    this.byPrice.delete(l.price);
    const ls = this.levels;
    if (ls[ls.length - 1] === l) {
      ls.pop();
      return;
    }
    let lo = 0,
      hi = ls.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (this.better(ls[mid]!.price, l.price)) hi = mid;
      else lo = mid + 1;
    }
    // lo is the first level better than l, so l sits just before it.
    if (ls[lo - 1] !== l) throw new Error(`level ${l.price} is not on the book`);
    ls.splice(lo - 1, 1);
  }
}

export interface DepthRow {
  price: number;
  lots: number;
}

export class Book {
  private readonly bids = new SideBook(true);
  private readonly asks = new SideBook(false);
  private readonly orders = new Map<number, RestingOrder>();
  private readonly levelOf = new Map<number, Level>();

  get orderCount(): number {
    return this.orders.size;
  }

  get levelCount(): number {
    return this.bids.levels.length + this.asks.levels.length;
  }

  get(id: number): RestingOrder | undefined {
    return this.orders.get(id);
  }

  /** Best price of a side, or undefined when that side is empty. */
  bestPrice(side: Side): number | undefined {
    return (side === 'buy' ? this.bids : this.asks).best()?.price;
  }

  /** The first n levels of a side, best first. */
  depth(side: Side, n: number): DepthRow[] {
    const ls = (side === 'buy' ? this.bids : this.asks).levels;
    const out: DepthRow[] = [];
    for (let i = ls.length - 1; i >= 0 && out.length < n; i--) out.push({ price: ls[i]!.price, lots: ls[i]!.total });
    return out;
  }

  /** Puts an order on the book without matching (restoring a stored book). */
  restore(o: RestingOrder): void {
    const l = (o.side === 'buy' ? this.bids : this.asks).levelFor(o.price);
    l.orders.push(o);
    l.total += o.left;
    l.live++;
    this.orders.set(o.id, o);
    this.levelOf.set(o.id, l);
  }

  /** Takes an order off the book; undefined when it is not resting. */
  cancel(id: number): RestingOrder | undefined {
    const o = this.orders.get(id);
    if (!o) return undefined;
    this.unlink(o);
    return o;
  }

  private unlink(o: RestingOrder): void {
    const l = this.levelOf.get(o.id)!;
    l.total -= o.left;
    o.left = 0;
    l.live--;
    this.orders.delete(o.id);
    this.levelOf.delete(o.id);
    if (l.live === 0) (o.side === 'buy' ? this.bids : this.asks).remove(l);
  }

  place(t: Incoming): PlaceResult {
    const opp = t.side === 'buy' ? this.asks : this.bids;
    const isMarket = t.type === 'market';
    const funds = isMarket && t.side === 'buy';
    const act: StpAct = t.stpAct ?? 'cn';
    const isBuy = t.side === 'buy';
    const limit = t.price;

    if (t.tif === 'poc') {
      const best = opp.best();
      if (isMarket || (best && (isBuy ? best.price <= limit : best.price >= limit)))
        throw new EngineRefusal('POC_FILL_IMMEDIATELY', 'a post-only order would take liquidity at once');
    }
    if (t.tif === 'fok' && !this.canFill(t, opp, act, funds)) {
      throw new EngineRefusal('FOK_NOT_FILL', 'the book cannot fill the whole order at once');
    }

    const fills: Fill[] = [];
    const stpCancelled: RestingOrder[] = [];
    let left = t.amount;
    let filledLots = 0,
      filledNotional = 0;
    let stopped: EngineFinish | null = null;

    let halt = false;
    while (left > 0 && !halt) {
      const l = opp.best();
      if (!l || (!isMarket && (isBuy ? l.price > limit : l.price < limit))) break;
      while (l.head < l.orders.length) {
        const m = l.orders[l.head]!;
        if (m.left === 0) {
          l.head++;
          continue;
        }
        if (t.stpId !== 0 && m.stpId === t.stpId) {
          if (act === 'co' || act === 'cb') {
            stpCancelled.push(m);
            l.total -= m.left;
            m.left = 0;
            l.head++;
            l.live--;
            this.orders.delete(m.id);
            this.levelOf.delete(m.id);
          }
          if (act === 'cn' || act === 'cb') {
            stopped = 'stp';
            halt = true;
            break;
          }
          continue;
        }
        let q = m.left < left ? m.left : left;
        if (funds) {
          const afford = Math.floor(left / l.price);
          if (afford === 0) {
            halt = true; // dust: less than one lot at this price
            break;
          }
          q = m.left < afford ? m.left : afford;
        }
        m.left -= q;
        l.total -= q;
        const notional = q * l.price;
        left -= funds ? notional : q;
        filledLots += q;
        filledNotional += notional;
        fills.push({ maker: m, price: l.price, lots: q });
        if (m.left === 0) {
          l.head++;
          l.live--;
          this.orders.delete(m.id);
          this.levelOf.delete(m.id);
        }
        if (left === 0) break;
      }
      if (l.live === 0) opp.remove(l);
      else l.compact();
    }

    let rested = false;
    let finishAs: EngineFinish;
    if (stopped) finishAs = stopped;
    else if (left === 0) finishAs = 'filled';
    else if (isMarket) finishAs = funds && filledLots > 0 && this.dustOnly(opp, left) ? 'filled' : 'depth_not_enough';
    else if (t.tif === 'ioc' || t.tif === 'fok') finishAs = 'ioc';
    else {
      this.restore({ id: t.id, owner: t.owner, side: t.side, price: t.price, left, stpId: t.stpId });
      rested = true;
      finishAs = 'open';
    }
    return { fills, stpCancelled, filledLots, filledNotional, left, rested, finishAs };
  }

  /** A market buy's leftover funds buy less than one lot at the best remaining ask. */
  private dustOnly(opp: SideBook, funds: number): boolean {
    const best = opp.best();
    return best !== undefined && funds < best.price;
  }

  /** Dry run of a fill-or-kill order: would it fill whole, STP included, without changing the book? */
  private canFill(t: Incoming, opp: SideBook, act: StpAct, funds: boolean): boolean {
    let need = t.amount;
    for (let i = opp.levels.length - 1; i >= 0; i--) {
      const l = opp.levels[i]!;
      if (t.type !== 'market' && (t.side === 'buy' ? l.price > t.price : l.price < t.price)) return false;
      for (let j = l.head; j < l.orders.length; j++) {
        const m = l.orders[j]!;
        if (m.left === 0) continue;
        if (t.stpId !== 0 && m.stpId === t.stpId) {
          if (act === 'co') continue;
          return false;
        }
        if (funds) {
          // Whole means spent down to dust: less than one lot at the next maker's price.
          const take = Math.min(m.left, Math.floor(need / l.price));
          if (take === 0) return need < t.amount;
          need -= take * l.price;
          if (need === 0 || take < m.left) return true;
        } else {
          need -= Math.min(m.left, need);
          if (need === 0) return true;
        }
      }
    }
    return false;
  }
}
