import { describe, expect, test } from 'vitest';
import { Book, EngineRefusal, type Incoming, type PlaceResult } from './engine.ts';

// The engine against §1 (price then time priority) and every row of the §3.5 table, and each time in force.

let nextId = 1;
function order(o: Partial<Incoming> & Pick<Incoming, 'side' | 'amount'>): Incoming {
  return { id: nextId++, owner: 'u', type: 'limit', price: 0, tif: 'gtc', stpId: 0, stpAct: null, ...o };
}

function fillsOf(r: PlaceResult): [number, number, number][] {
  return r.fills.map((f) => [f.maker.id, f.price, f.lots]);
}

function refusal(fn: () => unknown): string {
  try {
    fn();
  } catch (e) {
    if (e instanceof EngineRefusal) return e.label;
    throw e;
  }
  return 'accepted';
}

describe('priority (§1)', () => {
  test('asks A (10:00, 100), B (10:00, 102), C (10:01, 100): a buyer at 102 meets A, C, B', () => {
    const book = new Book();
    const a = order({ side: 'sell', price: 100, amount: 1, owner: 'A' });
    const b = order({ side: 'sell', price: 102, amount: 1, owner: 'B' });
    const c = order({ side: 'sell', price: 100, amount: 1, owner: 'C' });
    for (const o of [a, b, c]) expect(book.place(o).rested).toBe(true);
    const r = book.place(order({ side: 'buy', price: 102, amount: 3 }));
    expect(r.fills.map((f) => f.maker.owner)).toEqual(['A', 'C', 'B']);
    expect(fillsOf(r)).toEqual([
      [a.id, 100, 1],
      [c.id, 100, 1],
      [b.id, 102, 1],
    ]);
    expect(r.finishAs).toBe('filled');
    expect(book.orderCount).toBe(0);
  });

  test('the maker price is the trade price; a bid at a better price goes first', () => {
    const book = new Book();
    const low = order({ side: 'buy', price: 99, amount: 2 });
    const high = order({ side: 'buy', price: 101, amount: 2 });
    book.place(low);
    book.place(high);
    const r = book.place(order({ side: 'sell', price: 98, amount: 3 }));
    expect(fillsOf(r)).toEqual([
      [high.id, 101, 2],
      [low.id, 99, 1],
    ]);
    expect(book.depth('buy', 5)).toEqual([{ price: 99, lots: 1 }]);
  });
});

describe('life cycle (§3.5)', () => {
  test('fully executable at once: filled, nothing rests', () => {
    const book = new Book();
    book.place(order({ side: 'sell', price: 100, amount: 5 }));
    const r = book.place(order({ side: 'buy', price: 100, amount: 5 }));
    expect([r.finishAs, r.left, r.rested, r.filledLots, r.filledNotional]).toEqual(['filled', 0, false, 5, 500]);
  });

  test('partly executable with IOC: the remainder is cancelled', () => {
    const book = new Book();
    book.place(order({ side: 'sell', price: 100, amount: 2 }));
    const r = book.place(order({ side: 'buy', price: 100, amount: 5, tif: 'ioc' }));
    expect([r.finishAs, r.filledLots, r.left, r.rested]).toEqual(['ioc', 2, 3, false]);
    expect(book.bestPrice('buy')).toBeUndefined();
  });

  test('partly or not executable, other time in force: the rest stays open on the book', () => {
    const book = new Book();
    book.place(order({ side: 'sell', price: 100, amount: 2 }));
    const r = book.place(order({ side: 'buy', price: 100, amount: 5 }));
    expect([r.finishAs, r.filledLots, r.left, r.rested]).toEqual(['open', 2, 3, true]);
    expect(book.depth('buy', 5)).toEqual([{ price: 100, lots: 3 }]);
    const none = book.place(order({ side: 'buy', price: 90, amount: 1 }));
    expect([none.finishAs, none.fills.length, none.rested]).toEqual(['open', 0, true]);
  });

  for (const act of ['cn', null] as const) {
    test(`same STP group, stp_act ${act ?? 'omitted'}: the taker is cancelled (stp), the maker stays`, () => {
      const book = new Book();
      const maker = order({ side: 'sell', price: 100, amount: 2, stpId: 7 });
      book.place(maker);
      const r = book.place(order({ side: 'buy', price: 100, amount: 1, stpId: 7, stpAct: act }));
      expect([r.finishAs, r.fills.length, r.rested, r.stpCancelled.length]).toEqual(['stp', 0, false, 0]);
      expect(book.get(maker.id)?.left).toBe(2);
    });
  }

  test('same STP group, stp_act co: the maker is cancelled (stp), the taker goes on and stays open', () => {
    const book = new Book();
    const own = order({ side: 'sell', price: 100, amount: 2, stpId: 7 });
    const other = order({ side: 'sell', price: 101, amount: 1, stpId: 0 });
    book.place(own);
    book.place(other);
    const r = book.place(order({ side: 'buy', price: 101, amount: 3, stpId: 7, stpAct: 'co' }));
    expect(r.stpCancelled.map((m) => m.id)).toEqual([own.id]);
    expect(fillsOf(r)).toEqual([[other.id, 101, 1]]);
    expect([r.finishAs, r.left, r.rested]).toEqual(['open', 2, true]);
    expect(book.get(own.id)).toBeUndefined();
  });

  test('same STP group, stp_act cb: both are cancelled (stp)', () => {
    const book = new Book();
    const own = order({ side: 'sell', price: 100, amount: 2, stpId: 7 });
    book.place(own);
    const r = book.place(order({ side: 'buy', price: 100, amount: 3, stpId: 7, stpAct: 'cb' }));
    expect(r.stpCancelled.map((m) => m.id)).toEqual([own.id]);
    expect([r.finishAs, r.fills.length, r.rested]).toEqual(['stp', 0, false]);
    expect(book.orderCount).toBe(0);
    expect(book.levelCount).toBe(0);
  });

  test('fills made before the taker meets its own group are kept', () => {
    const book = new Book();
    const other = order({ side: 'sell', price: 100, amount: 1 });
    const own = order({ side: 'sell', price: 100, amount: 1, stpId: 3 });
    book.place(other);
    book.place(own);
    const r = book.place(order({ side: 'buy', price: 100, amount: 2, stpId: 3, stpAct: 'cn' }));
    expect([fillsOf(r), r.finishAs, r.left]).toEqual([[[other.id, 100, 1]], 'stp', 1]);
  });

  test("counterpart not in the taker's group (another group or none): the trade executes", () => {
    const book = new Book();
    const a = order({ side: 'sell', price: 100, amount: 1, stpId: 0 });
    const b = order({ side: 'sell', price: 100, amount: 1, stpId: 8 });
    book.place(a);
    book.place(b);
    const r = book.place(order({ side: 'buy', price: 100, amount: 2, stpId: 7, stpAct: 'cb' }));
    expect([fillsOf(r), r.finishAs]).toEqual([
      [
        [a.id, 100, 1],
        [b.id, 100, 1],
      ],
      'filled',
    ]);
  });
});

describe('time in force', () => {
  test('poc: refused when it would take, resting otherwise; the book is untouched by a refusal', () => {
    const book = new Book();
    book.place(order({ side: 'sell', price: 100, amount: 1 }));
    expect(refusal(() => book.place(order({ side: 'buy', price: 100, amount: 1, tif: 'poc' })))).toBe('POC_FILL_IMMEDIATELY');
    expect(book.depth('sell', 5)).toEqual([{ price: 100, lots: 1 }]);
    const r = book.place(order({ side: 'buy', price: 99, amount: 1, tif: 'poc' }));
    expect([r.finishAs, r.rested]).toEqual(['open', true]);
  });

  test('fok: refused unless the whole amount fills at once; fills whole otherwise', () => {
    const book = new Book();
    book.place(order({ side: 'sell', price: 100, amount: 2 }));
    book.place(order({ side: 'sell', price: 101, amount: 2 }));
    expect(refusal(() => book.place(order({ side: 'buy', price: 100, amount: 3, tif: 'fok' })))).toBe('FOK_NOT_FILL');
    expect(book.depth('sell', 5)).toEqual([
      { price: 100, lots: 2 },
      { price: 101, lots: 2 },
    ]);
    const r = book.place(order({ side: 'buy', price: 101, amount: 3, tif: 'fok' }));
    expect([r.finishAs, r.filledLots, r.filledNotional]).toEqual(['filled', 3, 301]);
  });

  test('fok counts STP: a maker of the own group blocks it under cn, is skipped under co', () => {
    const book = new Book();
    book.place(order({ side: 'sell', price: 100, amount: 2, stpId: 5 }));
    book.place(order({ side: 'sell', price: 100, amount: 2 }));
    expect(refusal(() => book.place(order({ side: 'buy', price: 100, amount: 2, tif: 'fok', stpId: 5 })))).toBe('FOK_NOT_FILL');
    expect(book.orderCount).toBe(2);
    const r = book.place(order({ side: 'buy', price: 100, amount: 2, tif: 'fok', stpId: 5, stpAct: 'co' }));
    expect([r.finishAs, r.filledLots, r.stpCancelled.length]).toEqual(['filled', 2, 1]);
  });

  test('market sell takes bids at any price; an exhausted book ends depth_not_enough', () => {
    const book = new Book();
    book.place(order({ side: 'buy', price: 100, amount: 1 }));
    book.place(order({ side: 'buy', price: 50, amount: 1 }));
    const r = book.place(order({ side: 'sell', type: 'market', amount: 3, tif: 'ioc' }));
    expect([r.fills.map((f) => f.price), r.filledLots, r.left, r.finishAs, r.rested]).toEqual([[100, 50], 2, 1, 'depth_not_enough', false]);
  });

  test('market buy spends funds (notional units) and ends filled when only dust is left', () => {
    const book = new Book();
    book.place(order({ side: 'sell', price: 100, amount: 3 }));
    book.place(order({ side: 'sell', price: 120, amount: 3 }));
    const r = book.place(order({ side: 'buy', type: 'market', amount: 450, tif: 'ioc' }));
    // 3 lots at 100 (300), then 1 lot at 120 (120): 30 units left, less than a lot at 120.
    expect([r.fills.map((f) => [f.price, f.lots]), r.filledNotional, r.left, r.finishAs]).toEqual([
      [
        [100, 3],
        [120, 1],
      ],
      420,
      30,
      'filled',
    ]);
  });

  test('cancel takes a resting order off; an emptied level disappears', () => {
    const book = new Book();
    const a = order({ side: 'buy', price: 100, amount: 1 });
    book.place(a);
    expect(book.cancel(a.id)?.id).toBe(a.id);
    expect(book.cancel(a.id)).toBeUndefined();
    expect([book.orderCount, book.levelCount]).toEqual([0, 0]);
  });
});
