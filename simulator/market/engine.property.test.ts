import fc from 'fast-check';
import { expect, test } from 'vitest';
import { NaiveBook, type NaiveOrder, type NaiveOutcome } from '../testkit/naiveBook.ts';
import { Book, EngineRefusal } from './engine.ts';

// Any sequence of orders and cancellations: the engine gives the same fills, STP cancellations and
// outcomes as the naive book of simulator/testkit, the book is never crossed after matching, and every
// order's lots are conserved (filled + left = amount, makers lose exactly what they fill).

type Op = { k: 'order'; o: Omit<NaiveOrder, 'id'> } | { k: 'cancel'; back: number };

const orderArb = fc
  .record({
    owner: fc.constantFrom('a', 'b', 'c'),
    side: fc.constantFrom('buy' as const, 'sell' as const),
    type: fc.constantFrom('limit' as const, 'limit' as const, 'limit' as const, 'market' as const),
    price: fc.integer({ min: 95, max: 105 }),
    amount: fc.integer({ min: 1, max: 12 }),
    tif: fc.constantFrom('gtc' as const, 'gtc' as const, 'ioc' as const, 'poc' as const, 'fok' as const),
    stpId: fc.constantFrom(0, 0, 1, 2),
    stpAct: fc.constantFrom(null, 'cn' as const, 'co' as const, 'cb' as const),
  })
  .map((o) => {
    // Market orders are ioc or fok (live service); a market buy spends funds in notional units.
    const tif = o.type === 'market' && (o.tif === 'gtc' || o.tif === 'poc') ? ('ioc' as const) : o.tif;
    return {
      ...o,
      tif,
      price: o.type === 'market' ? 0 : o.price,
      amount: o.type === 'market' && o.side === 'buy' ? o.amount * 97 : o.amount,
    };
  });
const opArb: fc.Arbitrary<Op> = fc.oneof(
  { weight: 5, arbitrary: orderArb.map((o) => ({ k: 'order' as const, o })) },
  { weight: 1, arbitrary: fc.nat({ max: 30 }).map((back) => ({ k: 'cancel' as const, back })) },
);

function engineOutcome(book: Book, o: NaiveOrder): NaiveOutcome {
  const makersBefore = new Map<number, number>();
  try {
    const r = book.place({ ...o });
    for (const f of r.fills) makersBefore.set(f.maker.id, (makersBefore.get(f.maker.id) ?? 0) + f.lots);
    return {
      fills: r.fills.map((f) => [f.maker.id, f.price, f.lots]),
      stpCancelled: r.stpCancelled.map((m) => m.id),
      left: r.left,
      finishAs: r.finishAs,
    };
  } catch (e) {
    if (e instanceof EngineRefusal) return { refused: e.label, fills: [], stpCancelled: [], left: o.amount, finishAs: '' };
    throw e;
  }
}

test('the engine matches the naive book, never stays crossed, and conserves lots', () => {
  let fills = 0,
    stp = 0,
    refusals = 0;
  fc.assert(
    fc.property(fc.array(opArb, { minLength: 20, maxLength: 80 }), (ops) => {
      const book = new Book();
      const naive = new NaiveBook();
      const ids: number[] = [];
      let id = 0;
      for (const op of ops) {
        if (op.k === 'cancel') {
          const target = ids[ids.length - 1 - (op.back % Math.max(1, ids.length))];
          if (target === undefined) continue;
          expect(book.cancel(target) !== undefined).toBe(naive.cancel(target));
          continue;
        }
        const o: NaiveOrder = { ...op.o, id: ++id };
        ids.push(o.id);
        const restingBefore = new Map([...naive.bids, ...naive.asks].map((r) => [r.id, r.left]));
        const want = naive.place({ ...o });
        const got = engineOutcome(book, o);
        expect(got).toEqual(want);
        fills += got.fills.length;
        stp += got.stpCancelled.length;
        if (got.refused) refusals++;
        // Conservation: a limit order's lots are filled or left; each maker loses what it filled.
        const filled = got.fills.reduce((s, f) => s + (o.type === 'market' && o.side === 'buy' ? f[1] * f[2] : f[2]), 0);
        if (!got.refused) expect(filled + got.left).toBe(o.amount);
        for (const [maker, , lots] of got.fills) {
          const after = book.get(maker)?.left ?? 0;
          expect(after).toBe((restingBefore.get(maker) ?? 0) - got.fills.filter((f) => f[0] === maker).reduce((s, f) => s + f[2], 0));
          expect(lots).toBeGreaterThan(0);
        }
        const bid = book.bestPrice('buy'),
          ask = book.bestPrice('sell');
        if (bid !== undefined && ask !== undefined) expect(bid).toBeLessThan(ask);
      }
      const depthOf = (side: 'buy' | 'sell') => {
        const byPrice = new Map<number, number>();
        for (const r of side === 'buy' ? naive.bids : naive.asks) byPrice.set(r.price, (byPrice.get(r.price) ?? 0) + r.left);
        return [...byPrice].map(([price, lots]) => ({ price, lots }));
      };
      expect(book.depth('buy', 1000)).toEqual(depthOf('buy'));
      expect(book.depth('sell', 1000)).toEqual(depthOf('sell'));
    }),
    { numRuns: 400, seed: 15 },
  );
  // The runs must have exercised fills, STP and refusals, or the property proved little.
  expect(fills).toBeGreaterThan(500);
  expect(stp).toBeGreaterThan(20);
  expect(refusals).toBeGreaterThan(20);
});
