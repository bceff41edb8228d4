// A deliberately naive order book, written apart from simulator/market/engine.ts to check it: each side
// is one flat array kept sorted by (price, arrival) with a linear search on every insertion, and every
// fill takes the array's first element. Slow on purpose and short enough to read against §1 and §3.5.
// Used by the engine's property test and by `npm run bench -- matching` (replayed orders must give
// identical fills).

export interface NaiveOrder {
  id: number;
  owner: string;
  side: 'buy' | 'sell';
  type: 'limit' | 'market';
  price: number;
  amount: number;
  tif: 'gtc' | 'ioc' | 'poc' | 'fok';
  stpId: number;
  stpAct: 'cn' | 'co' | 'cb' | null;
}

interface Resting {
  id: number;
  price: number;
  left: number;
  stpId: number;
  seq: number;
}

/** What one order did, in a form two engines can compare as text. */
export interface NaiveOutcome {
  refused?: 'POC_FILL_IMMEDIATELY' | 'FOK_NOT_FILL';
  fills: [makerId: number, price: number, lots: number][];
  stpCancelled: number[];
  left: number;
  finishAs: string;
}

export class NaiveBook {
  /** Best first: bids by price down, asks by price up; equal prices by arrival. */
  bids: Resting[] = [];
  asks: Resting[] = [];
  private seq = 0;

  private static ahead(side: 'buy' | 'sell', a: Resting, b: Resting): boolean {
    if (a.price !== b.price) return side === 'buy' ? a.price > b.price : a.price < b.price;
    return a.seq < b.seq;
  }

  private insert(side: 'buy' | 'sell', r: Resting): void {
    const list = side === 'buy' ? this.bids : this.asks;
    let i = list.findIndex((x) => NaiveBook.ahead(side, r, x));
    if (i < 0) i = list.length;
    list.splice(i, 0, r);
  }

  rest(o: { id: number; side: 'buy' | 'sell'; price: number; left: number; stpId: number }): void {
    this.insert(o.side, { id: o.id, price: o.price, left: o.left, stpId: o.stpId, seq: this.seq++ });
  }

  /** Many resting orders at once (a benchmark's starting book): appended, then sorted once. */
  restAll(orders: { id: number; side: 'buy' | 'sell'; price: number; left: number; stpId: number }[]): void {
    for (const o of orders)
      (o.side === 'buy' ? this.bids : this.asks).push({ id: o.id, price: o.price, left: o.left, stpId: o.stpId, seq: this.seq++ });
    this.bids.sort((a, b) => (NaiveBook.ahead('buy', a, b) ? -1 : 1));
    this.asks.sort((a, b) => (NaiveBook.ahead('sell', a, b) ? -1 : 1));
  }

  cancel(id: number): boolean {
    for (const list of [this.bids, this.asks]) {
      const i = list.findIndex((x) => x.id === id);
      if (i >= 0) {
        list.splice(i, 1);
        return true;
      }
    }
    return false;
  }

  /** Would the order reach this maker's price? */
  private static reaches(o: NaiveOrder, price: number): boolean {
    if (o.type === 'market') return true;
    return o.side === 'buy' ? price <= o.price : price >= o.price;
  }

  place(o: NaiveOrder): NaiveOutcome {
    const against = o.side === 'buy' ? this.asks : this.bids;
    const spendsFunds = o.type === 'market' && o.side === 'buy';
    const act = o.stpAct ?? 'cn';
    if (o.tif === 'poc' && (o.type === 'market' || (against.length > 0 && NaiveBook.reaches(o, against[0]!.price)))) {
      return { refused: 'POC_FILL_IMMEDIATELY', fills: [], stpCancelled: [], left: o.amount, finishAs: '' };
    }
    if (o.tif === 'fok') {
      // Replay the match on a copy of the opposite side and keep it only if it fills whole.
      const saved = against.map((x) => ({ ...x }));
      const trial = this.match(o, against, spendsFunds, act);
      const whole = trial.left === 0 || (spendsFunds && trial.fills.length > 0 && trial.dust);
      against.length = 0;
      against.push(...saved);
      if (!whole || trial.stopped) return { refused: 'FOK_NOT_FILL', fills: [], stpCancelled: [], left: o.amount, finishAs: '' };
    }
    const m = this.match(o, against, spendsFunds, act);
    let finishAs: string;
    if (m.stopped) finishAs = 'stp';
    else if (m.left === 0) finishAs = 'filled';
    else if (o.type === 'market') finishAs = spendsFunds && m.fills.length > 0 && m.dust ? 'filled' : 'depth_not_enough';
    else if (o.tif === 'ioc' || o.tif === 'fok') finishAs = 'ioc';
    else {
      this.rest({ id: o.id, side: o.side, price: o.price, left: m.left, stpId: o.stpId });
      finishAs = 'open';
    }
    return { fills: m.fills, stpCancelled: m.stpCancelled, left: m.left, finishAs };
  }

  private match(o: NaiveOrder, against: Resting[], spendsFunds: boolean, act: 'cn' | 'co' | 'cb') {
    const fills: [number, number, number][] = [];
    const stpCancelled: number[] = [];
    let left = o.amount;
    let stopped = false;
    let dust = false;
    while (left > 0 && against.length > 0 && NaiveBook.reaches(o, against[0]!.price)) {
      const maker = against[0]!;
      if (o.stpId !== 0 && maker.stpId === o.stpId) {
        if (act !== 'cn') {
          stpCancelled.push(maker.id);
          against.shift();
        }
        if (act !== 'co') {
          stopped = true;
          break;
        }
        continue;
      }
      const want = spendsFunds ? Math.floor(left / maker.price) : left;
      if (want === 0) {
        dust = true;
        break;
      }
      const lots = Math.min(want, maker.left);
      fills.push([maker.id, maker.price, lots]);
      maker.left -= lots;
      left -= spendsFunds ? lots * maker.price : lots;
      if (maker.left === 0) against.shift();
    }
    if (spendsFunds && left > 0 && !stopped && against.length > 0 && left < against[0]!.price) dust = true;
    return { fills, stpCancelled, left, stopped, dust };
  }
}
