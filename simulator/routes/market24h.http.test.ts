import Decimal from 'decimal.js';
import { describe, expect, test } from 'vitest';
import { CurrencyPair, OrderBook, SpotOrder, SpotTrade } from '../../shared/api/orders.ts';
import { failure, useClient } from '../testkit/client.ts';

// The spot market where it must match the live service: trade times in milliseconds, the tickers'
// rolling 24-hour figures, and one currency pair by name. A fresh Sandbox: no trade before these.

const c = useClient();

const PAIR = 'BTC_USDT';

async function ticker(pair = PAIR): Promise<Record<string, string>> {
  const r = await c.publicGet('/spot/tickers', { currency_pair: pair });
  expect(r.status).toBe(200);
  return (r.json as Array<Record<string, string>>)[0]!;
}

/** Buys across the two best asks, so that the order makes two trades at two prices. */
async function buyAcrossTwoLevels(): Promise<SpotTrade[]> {
  const r = await c.publicGet('/spot/order_book', { currency_pair: PAIR, limit: 2 });
  const b = OrderBook.parse(r.json);
  const [, a1] = b.asks[0]!,
    [p2] = b.asks[1]!;
  const placed = await c.post('/spot/orders', {
    currency_pair: PAIR,
    side: 'buy',
    amount: new Decimal(a1).plus('0.001').toFixed(),
    price: p2,
  });
  expect(placed.status, placed.text).toBe(201);
  const o = SpotOrder.parse(placed.json);
  const trades = (await c.get('/spot/my_trades', { currency_pair: PAIR, order_id: o.id })).json as unknown[];
  return trades.map((t) => SpotTrade.parse(t));
}

describe('the spot market as the live service answers it', () => {
  test('a trade carries create_time_ms in milliseconds with 3 decimals, the same instant as create_time', async () => {
    const before = c.s.clock.now();
    const trades = await buyAcrossTwoLevels();
    const after = c.s.clock.now();
    // The best level may hold several makers' orders: one trade each, then one at the next price.
    expect(new Set(trades.map((t) => t.price)).size).toBe(2);
    for (const t of trades) {
      expect(t.create_time_ms).toMatch(/^\d{13}\.\d{3}$/);
      const ms = Number(t.create_time_ms);
      expect(Math.floor(ms / 1000)).toBe(Number(t.create_time));
      expect(ms).toBeGreaterThanOrEqual(Math.floor(before * 1000));
      expect(ms).toBeLessThanOrEqual(after * 1000);
    }
  });

  test("the ticker's volumes, high and low cover the last 24 hours of trades, each trade once", async () => {
    // The first test's trades and these: every trade of this Sandbox, all within the window.
    await buyAcrossTwoLevels();
    const all = (await c.get('/spot/my_trades', { currency_pair: PAIR, limit: 100 })).json as unknown[];
    const trades = all.map((t) => SpotTrade.parse(t));
    expect(trades.length).toBeGreaterThanOrEqual(4);
    const prices = trades.map((t) => new Decimal(t.price));
    const t = await ticker();
    expect(t.base_volume).toBe(trades.reduce((s, x) => s.plus(x.amount), new Decimal(0)).toFixed());
    expect(t.quote_volume).toBe(trades.reduce((s, x) => s.plus(new Decimal(x.price).times(x.amount)), new Decimal(0)).toFixed());
    expect(t.high_24h).toBe(Decimal.max(...prices).toFixed());
    expect(t.low_24h).toBe(Decimal.min(...prices).toFixed());
    expect(new Decimal(t.high_24h!).gt(t.low_24h!)).toBe(true);

    // A day later, with no trade since, the window is empty: volumes 0, high and low the last price.
    c.s.clock.advance(24 * 60 * 60 + 1);
    const later = await ticker();
    expect([later.base_volume, later.quote_volume]).toEqual(['0', '0']);
    expect([later.high_24h, later.low_24h]).toEqual([later.last, later.last]);
  });

  test('GET /spot/currency_pairs/{pair} answers the pair; an unknown one is 404 INVALID_CURRENCY_PAIR', async () => {
    const r = await c.publicGet(`/spot/currency_pairs/${PAIR}`);
    expect(r.status).toBe(200);
    const one = CurrencyPair.parse(r.json);
    const list = (await c.publicGet('/spot/currency_pairs')).json as Array<{ id: string }>;
    expect(r.json).toEqual(list.find((p) => p.id === PAIR));
    expect(one).toMatchObject({ id: PAIR, base: 'BTC', quote: 'USDT' });
    expect(failure(await c.publicGet('/spot/currency_pairs/NOPE_USDT'))).toEqual({ status: 404, label: 'INVALID_CURRENCY_PAIR' });
  });
});
