import { expect, test, vi } from 'vitest';
import { admin, signed, type Reply } from '../testkit/http.ts';
import { useTestSandbox } from '../testkit/sandbox.ts';

// §8.2 spot rows with the real market routes and limits on: placement 10/s per UID and market,
// cancellation 200/s in total (single, all-of-a-pair and batch share it), other spot endpoints 200/10 s each.

const s = useTestSandbox({});

const num = (r: Reply, h: string) => Number(r.headers[h]);
const order = (pair: string, key = s.credentials.main) =>
  signed(s.baseUrl, key, {
    method: 'POST',
    path: '/spot/orders',
    body: JSON.stringify({ currency_pair: pair, side: 'buy', amount: '1', price: '0.01' }),
  });

test('placement: 10 per second per UID and market; another market and another UID have their own', async () => {
  const burst = await Promise.all(Array.from({ length: 11 }, () => order('XRP_USDT')));
  const codes = burst.map((r) => r.status);
  // 1 XRP at 0.01 is below the 3 USDT minimum: refused by the handler, but counted (§8.2 counts every request).
  expect(codes.filter((c) => c === 429)).toHaveLength(1);
  expect(codes.filter((c) => c === 400)).toHaveLength(10);
  expect(burst.find((r) => r.status === 429)!.json.label).toBe('TOO_MANY_REQUESTS');
  expect(num(burst[0]!, 'x-svc-ratelimit-limit')).toBe(10);
  expect((await order('TRX_USDT')).status).toBe(400);
  expect((await order('XRP_USDT', s.credentials.sub_accounts[0])).status).toBe(400);
  await admin(s, 'POST', '/clock/advance', { seconds: 1 });
  expect((await order('XRP_USDT')).status).toBe(400);
});

test('cancellation: one 200 per second bucket for single, pair-wide and batch cancels', async () => {
  const k = s.credentials.main;
  const one = await signed(s.baseUrl, k, { method: 'DELETE', path: '/spot/orders/1', query: 'currency_pair=BTC_USDT' });
  const all = await signed(s.baseUrl, k, { method: 'DELETE', path: '/spot/orders', query: 'currency_pair=BTC_USDT' });
  const batch = await signed(s.baseUrl, k, { method: 'POST', path: '/spot/cancel_batch_orders', body: '[]' });
  expect([one.status, all.status, batch.status]).toEqual([404, 200, 200]);
  expect([one, all, batch].map((r) => num(r, 'x-svc-ratelimit-limit'))).toEqual([200, 200, 200]);
  const remain = [one, all, batch].map((r) => num(r, 'x-svc-ratelimit-requests-remain'));
  expect(remain[1]! - remain[2]!).toBe(1);
  expect(remain[0]! - remain[1]!).toBe(1);
  const reads = await signed(s.baseUrl, k, { method: 'GET', path: '/spot/my_trades' });
  expect([reads.status, num(reads, 'x-svc-ratelimit-limit')]).toEqual([200, 200]);
});

test('a placement body is read as JSON once, though its market also picks the rate-limit bucket', async () => {
  const body = JSON.stringify({ currency_pair: 'ETH_USDT', side: 'buy', amount: '0.0001', price: '1', text: 't-parsed-once' });
  const parse = vi.spyOn(JSON, 'parse');
  try {
    const r = await signed(s.baseUrl, s.credentials.main, { method: 'POST', path: '/spot/orders', body });
    expect([r.status, r.json.label]).toEqual([400, 'AMOUNT_TOO_LITTLE']);
    expect(num(r, 'x-svc-ratelimit-limit')).toBe(10);
    expect(parse.mock.calls.filter(([text]) => text === body)).toHaveLength(1);
  } finally {
    parse.mockRestore();
  }
});
