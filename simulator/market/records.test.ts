import Decimal from 'decimal.js';
import fc from 'fast-check';
import { expect, test } from 'vitest';
import { Dec, fmt } from '../../shared/money.ts';
import { orderJson, orderWire, placesOf, type OrderRec } from './records.ts';
import { bigText } from './scaled.ts';

// An order's money is held as integers at its pair's places; its wire shape must read as the decimal.js
// figures the Sandbox answered before: avg_deal_price is quote filled ÷ base filled at the price's places
// + 4, half up, and the amounts are plain decimal strings.

const order = (side: 'buy' | 'sell', filledAmount: bigint, filledTotal: bigint, fee: bigint): OrderRec => ({
  id: 1,
  uid: '10000001',
  text: 'apiv4',
  pair: 'X_Y',
  type: 'limit',
  account: 'spot',
  side,
  amount: '1',
  price: '1',
  tif: 'gtc',
  left: '0',
  filledAmount,
  filledTotal,
  fee,
  feeCurrency: 'X',
  locked: 0n,
  stpId: 0,
  stpAct: '-',
  status: 'closed',
  finishAs: 'filled',
  createMs: 0,
  updateMs: 0,
});

test('the wire figures of an order are the decimal.js figures of its fills', () => {
  fc.assert(
    fc.property(
      fc.integer({ min: 0, max: 8 }),
      fc.integer({ min: 0, max: 8 }),
      fc.bigInt({ min: 1n, max: 10n ** 15n }),
      // Fills at several prices: any quote total.
      fc.bigInt({ min: 1n, max: 10n ** 24n }),
      fc.constantFrom('buy' as const, 'sell' as const),
      (ap, pp, lots, notional, side) => {
        const at = placesOf({ ap, pp }, side);
        const amount = new Dec(bigText(lots, at.base));
        const total = new Dec(bigText(notional, at.quote));
        // A buyer pays its fee in base, a seller in quote: 0.2% of what each gets.
        const fee = (side === 'buy' ? lots : notional) * 2n;
        const w = orderWire(order(side, lots, notional, fee), { ap, pp }, 'Y');
        expect(w.avg_deal_price).toBe(fmt(total.div(amount).toDecimalPlaces(pp + 4, Decimal.ROUND_HALF_UP)));
        expect(w.filled_amount).toBe(fmt(amount));
        expect([w.filled_total, w.fill_price]).toEqual([fmt(total), fmt(total)]);
        expect(w.fee).toBe(fmt((side === 'buy' ? amount : total).times('0.002')));
      },
    ),
    { numRuns: 3000 },
  );
});

test('an average that falls on a half rounds up; nothing filled averages 0', () => {
  // 3 lots for 1 notional unit at pp 0, ap 0: 0.3333… → 0.3333; 2 lots for 1: 0.5 exactly; 8 lots for 1 at
  // 4 extra places: 0.125 → 0.125; 3 for 2: 0.66666… → 0.6667.
  const avg = (amount: bigint, total: bigint) => orderWire(order('sell', amount, total, 0n), { ap: 0, pp: 0 }, 'Y').avg_deal_price;
  expect([avg(3n, 1n), avg(2n, 1n), avg(8n, 1n), avg(3n, 2n), avg(0n, 0n)]).toEqual(['0.3333', '0.5', '0.125', '0.6667', '0']);
  // 16 lots for 1: 0.0625 exactly (4 places); 32 for 1: 0.03125 → 0.0313 (half up).
  expect([avg(16n, 1n), avg(32n, 1n)]).toEqual(['0.0625', '0.0313']);
});

test('an order written out as JSON is JSON.stringify of its wire shape, character for character', () => {
  const text = fc.oneof(fc.constant('apiv4'), fc.string(), fc.string({ unit: 'grapheme' }));
  fc.assert(
    fc.property(
      fc.record({
        id: fc.integer({ min: 1, max: 2 ** 40 }),
        text,
        side: fc.constantFrom('buy' as const, 'sell' as const),
        status: fc.constantFrom('open' as const, 'closed' as const, 'cancelled' as const),
        filledAmount: fc.bigInt({ min: 0n, max: 10n ** 20n }),
        filledTotal: fc.bigInt({ min: 0n, max: 10n ** 30n }),
        fee: fc.bigInt({ min: 0n, max: 10n ** 30n }),
        stpId: fc.integer({ min: 0, max: 2 ** 31 }),
        createMs: fc.integer({ min: 0, max: 2 ** 45 }),
        updateMs: fc.integer({ min: 0, max: 2 ** 45 }),
        amount: fc.string(),
        left: fc.string(),
        pair: fc.string(),
        feeCurrency: fc.string(),
        stpAct: fc.constantFrom('-', 'cn', 'co', 'cb'),
        finishAs: fc.constantFrom('open', 'filled', 'ioc', 'stp', 'cancelled', 'depth_not_enough'),
      }),
      fc.integer({ min: 0, max: 8 }),
      fc.integer({ min: 0, max: 8 }),
      fc.string(),
      (f, ap, pp, quote) => {
        const o: OrderRec = { ...order(f.side, f.filledAmount, f.filledTotal, f.fee), ...f };
        expect(orderJson(o, { ap, pp }, quote)).toBe(JSON.stringify(orderWire(o, { ap, pp }, quote)));
      },
    ),
    { numRuns: 2000 },
  );
});
