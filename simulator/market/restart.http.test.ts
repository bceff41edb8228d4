import Decimal from 'decimal.js';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, expect, test } from 'vitest';
import { startSandbox, type RunningSandbox } from '../app.ts';
import { DEFAULT_OPTIONS } from '../options.ts';
import { send, signed } from '../testkit/http.ts';

// The book lives in memory but its orders are in the store: after a restart a resting order is still on
// the book, still locks its money, and can be filled or cancelled.

const dir = mkdtempSync(join(tmpdir(), 'sandbox-restart-'));
let s: RunningSandbox | undefined;
afterAll(async () => {
  await s?.close();
  rmSync(dir, { recursive: true, force: true });
});

const start = () => startSandbox({ dataDir: dir, port: 0, host: '127.0.0.1', options: { ...DEFAULT_OPTIONS, noLimits: true } });

test('a resting order survives a restart on the book, with its lock', async () => {
  s = await start();
  const k = s.credentials.main;
  const placed = await signed(s.baseUrl, k, {
    method: 'POST',
    path: '/spot/orders',
    body: JSON.stringify({ currency_pair: 'ETH_USDT', side: 'sell', amount: '0.5', price: '9000', text: 't-keep' }),
  });
  expect(placed.status, placed.text).toBe(201);
  const id = placed.json.id as string;
  const ethBefore = (await signed(s.baseUrl, k, { method: 'GET', path: '/spot/accounts', query: 'currency=ETH' })).json[0];
  await s.close();

  s = await start();
  const k2 = s.credentials.main;
  const book = await send(s.baseUrl, {
    method: 'GET',
    path: `${new URL(s.baseUrl).pathname}/spot/order_book?currency_pair=ETH_USDT&limit=100`,
  });
  expect((book.json.asks as string[][]).find(([p]) => p === '9000')).toEqual(['9000', '0.5']);
  expect((await signed(s.baseUrl, k2, { method: 'GET', path: '/spot/accounts', query: 'currency=ETH' })).json[0]).toEqual(ethBefore);
  const got = await signed(s.baseUrl, k2, { method: 'GET', path: `/spot/orders/${id}`, query: 'currency_pair=ETH_USDT' });
  expect([got.json.status, got.json.left]).toEqual(['open', '0.5']);
  const cancelled = await signed(s.baseUrl, k2, { method: 'DELETE', path: '/spot/orders/t-keep', query: 'currency_pair=ETH_USDT' });
  expect(cancelled.json.finish_as).toBe('cancelled');
  const eth = (await signed(s.baseUrl, k2, { method: 'GET', path: '/spot/accounts', query: 'currency=ETH' })).json[0];
  expect(new Decimal(eth.available).minus(ethBefore.available).toFixed()).toBe('0.5');
  expect(new Decimal(ethBefore.locked).minus(eth.locked).toFixed()).toBe('0.5');
});
