import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { useSandbox } from '../testkit/sandbox.ts';
import { ok, sandboxCore, type Desk } from '../testkit/sandboxCore.ts';

// The Orders page's reads (service.ts) through the core's channels against a real Sandbox: the market's
// unsigned reads, and orders and trades read with the main key or with a sub-account's own key, refused
// before anything is sent for a sub-account whose key the profile does not hold.

const sb = useSandbox('orders-reads', { limits: false });
let core: Desk;
beforeAll(() => {
  core = sandboxCore(sb);
});
afterAll(async () => {
  await core?.close();
});

describe("the Orders page's reads", () => {
  it('reads the pairs, a ticker and an order book of the market', async () => {
    expect((await ok<{ id: string }[]>(core.invoke('spotPairs', {}))).map((p) => p.id)).toContain('BTC_USDT');
    expect(await ok<{ currency_pair: string }>(core.invoke('spotTicker', { currency_pair: 'BTC_USDT' }))).toMatchObject({
      currency_pair: 'BTC_USDT',
    });
    const book = await ok<{ asks: unknown[]; bids: unknown[] }>(core.invoke('spotOrderBook', { currency_pair: 'BTC_USDT', limit: 3 }));
    expect(book.asks.length).toBeGreaterThan(0);
    expect(book.asks.length).toBeLessThanOrEqual(3);
    expect(book.bids.length).toBeLessThanOrEqual(3);
  });

  it("reads orders and trades with the main key or a sub-account's own; a sub-account without a key is refused", async () => {
    const sub = sb.creds.sub_accounts[0]!.uid;
    for (const q of [{}, { sub_uid: sub }]) {
      expect(Array.isArray(await ok(core.invoke('spotOrders', { currency_pair: 'BTC_USDT', status: 'open', ...q })))).toBe(true);
      expect(Array.isArray(await ok(core.invoke('spotOrders', { currency_pair: 'BTC_USDT', status: 'finished', limit: 5, ...q })))).toBe(
        true,
      );
      expect(Array.isArray(await ok(core.invoke('spotTrades', { currency_pair: 'BTC_USDT', ...q })))).toBe(true);
    }
    const none = await core.invoke('spotOrders', { currency_pair: 'BTC_USDT', status: 'open', sub_uid: '99999999' });
    expect(none).toMatchObject({
      ok: false,
      error: { message: 'This profile holds no key for sub-account 99999999. Add its key in Settings to see its orders.' },
    });
  });
});
