import { describe, expect, it } from 'vitest';
import { estimateCost, orderProblems } from './orderRules.ts';
import type { CurrencyPair } from './orders.ts';

const BTC: CurrencyPair = {
  id: 'BTC_USDT',
  base: 'BTC',
  quote: 'USDT',
  fee: '0.2',
  min_base_amount: '0.0001',
  min_quote_amount: '1',
  max_quote_amount: '5000000',
  amount_precision: 4,
  precision: 2,
  trade_status: 'tradable',
};
const limit = (amount: string, price?: string, side: 'buy' | 'sell' = 'buy') => ({
  side,
  type: 'limit' as const,
  amount,
  ...(price !== undefined ? { price } : {}),
});
const fields = (o: Parameters<typeof orderProblems>[0]) => orderProblems(o, BTC).map((p) => `${p.field}: ${p.message}`);

describe("a pair's rules before an order is drafted", () => {
  it('accepts an order within them', () => {
    expect(fields(limit('0.001', '60000.5'))).toEqual([]);
    expect(fields({ side: 'buy', type: 'market', amount: '25.5' })).toEqual([]);
  });

  it('names too many decimals of the amount and of the price', () => {
    expect(fields(limit('0.00015', '60000'))).toEqual(['amount: BTC_USDT takes amounts with at most 4 decimal places']);
    expect(fields(limit('0.001', '60000.123'))).toEqual(['price: BTC_USDT takes prices with at most 2 decimal places']);
  });

  it("checks a market buy's quote amount with the quote's precision and minimum", () => {
    expect(fields({ side: 'buy', type: 'market', amount: '0.5' })).toEqual(['amount: the amount must be at least 1 USDT']);
    expect(fields({ side: 'buy', type: 'market', amount: '10.123' })).toEqual([
      'amount: BTC_USDT takes amounts with at most 2 decimal places',
    ]);
  });

  it('names amounts below the minimum base amount and totals below the minimum quote amount', () => {
    expect(fields(limit('0.00001', '60000'))).toContain('amount: the amount must be at least 0.0001 BTC');
    expect(fields(limit('0.0001', '5'))).toEqual(['amount: price × amount is 0.0005 USDT; it must be at least 1 USDT']);
    expect(fields(limit('1000', '6000'))).toEqual(['amount: price × amount must be at most 5000000 USDT']);
  });

  it('refuses a limit order with no price, a zero or a malformed number', () => {
    expect(fields(limit('0.01'))).toEqual(['price: the price must be a plain decimal number such as 0.5']);
    expect(fields(limit('0', '1'))).toEqual(['amount: the amount must be above 0']);
    expect(fields(limit('1e3', '1'))).toEqual(['amount: the amount must be a plain decimal number such as 0.5']);
  });

  it('refuses any order on a pair that does not trade', () => {
    expect(orderProblems(limit('0.01', '60000'), { ...BTC, trade_status: 'untradable' })[0]!.message).toContain('not tradable');
  });
});

describe("the review's estimate", () => {
  it('prices a limit buy at its price and charges the fee in the base received', () => {
    expect(estimateCost(limit('0.01', '60000'), BTC, null, null)).toEqual({
      spend: '600',
      spendCurrency: 'USDT',
      receive: '0.01',
      receiveCurrency: 'BTC',
      fee: '0.00002',
      atPrice: '60000',
    });
  });

  it('prices a market sell at the best bid and charges the fee in the quote received', () => {
    expect(estimateCost({ side: 'sell', type: 'market', amount: '0.5' }, BTC, '60010', '59990')).toMatchObject({
      spend: '0.5',
      receive: '29995',
      fee: '59.99',
      atPrice: '59990',
    });
  });

  it('has no estimate for a market order on an empty side of the book', () => {
    expect(estimateCost({ side: 'buy', type: 'market', amount: '100' }, BTC, null, '59990')).toBeNull();
  });
});
