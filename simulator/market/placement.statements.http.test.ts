import type { Statement } from 'better-sqlite3';
import { expect, test } from 'vitest';
import { OrderBook, SpotOrder } from '../../shared/api/orders.ts';
import { commitBatch } from '../db.ts';
import { parsePlace } from '../routes/orderParams.ts';
import { useClient } from '../testkit/client.ts';
import type { OrderRec } from './records.ts';
import { fromScaled } from './scaled.ts';
import { marketOf } from './service.ts';

// What placements cost the store (docs/performance.md §The Sandbox: "a placement is one SQLite transaction of prepared
// statements"): the orders of one batch (db.ts inBatch) read each balance they change once and write it
// once, adding in place, when the batch commits; both sides of a trade are one INSERT; each order is
// written once per batch (an INSERT when it is new, else an UPDATE). Recorded at the statements
// themselves, through HTTP and in-process.

const c = useClient();

async function recorded<T>(work: () => Promise<T>): Promise<{ result: T; sql: string[] }> {
  const proto = Object.getPrototypeOf(c.s.db.prepare('SELECT 1')) as Record<string, (this: Statement, ...a: unknown[]) => unknown>;
  const sql: string[] = [];
  const saved = new Map<string, (this: Statement, ...a: unknown[]) => unknown>();
  for (const name of ['run', 'get', 'all', 'iterate']) {
    const original = proto[name]!;
    saved.set(name, original);
    proto[name] = function (this: Statement, ...args: unknown[]) {
      sql.push(this.source.replace(/\s+/g, ' '));
      return original.apply(this, args);
    };
  }
  try {
    return { result: await work(), sql };
  } finally {
    for (const [name, original] of saved) proto[name] = original;
  }
}

const touching = (sql: string[], table: string) => sql.filter((s) => new RegExp(`\\b${table}\\b`).test(s)).map((s) => s.split(' ')[0]);

test('a resting order reads the balance it locks once and writes it once', async () => {
  // The first order loads the market (its open orders and ids) and is not what this counts.
  const body = { currency_pair: 'BTC_USDT', side: 'buy', amount: '0.001', price: '10000' };
  expect((await c.post('/spot/orders', body)).status).toBe(201);
  const { result, sql } = await recorded(() =>
    c.post('/spot/orders', { currency_pair: 'BTC_USDT', side: 'buy', amount: '0.001', price: '10000', text: 't-rest' }),
  );
  expect(result.status, result.text).toBe(201);
  expect(SpotOrder.parse(result.json).status).toBe('open');
  expect(touching(sql, 'balances')).toEqual(['SELECT', 'UPDATE']);
  expect(touching(sql, 'spot_orders')).toEqual(['INSERT']);
  expect(touching(sql, 'spot_fills')).toEqual([]);
});

test('a fill reads and writes each balance it changes once, both sides of the trade in one INSERT', async () => {
  const book = OrderBook.parse((await c.publicGet('/spot/order_book', { currency_pair: 'BTC_USDT', limit: 1 })).json);
  const [ask] = book.asks[0]!;
  const body = { currency_pair: 'BTC_USDT', side: 'buy', amount: '0.0001', price: ask, time_in_force: 'ioc' };
  // The first fill makes the rows a pocket lacked (the house's, the taker's BTC): an UPDATE that finds none, then an INSERT.
  expect((await c.post('/spot/orders', body)).status).toBe(201);
  const { result, sql } = await recorded(() => c.post('/spot/orders', body));
  expect(result.status, result.text).toBe(201);
  const o = SpotOrder.parse(result.json);
  expect([o.status, o.filled_amount]).toEqual(['closed', '0.0001']);
  // The taker's USDT (locked and settled), its BTC, the maker's BTC and USDT and the house's fee in each
  // currency: six balances, each read when the order first touches it and written at the commit.
  expect(touching(sql, 'balances')).toEqual([...Array(6).fill('SELECT'), ...Array(6).fill('UPDATE')]);
  expect(touching(sql, 'spot_fills')).toEqual(['INSERT']);
  expect(touching(sql, 'spot_orders').sort()).toEqual(['INSERT', 'UPDATE']);
});

test('the orders of one batch read and write each balance once between them', () => {
  const m = marketOf(c.s.db);
  const uid = c.main.uid;
  const buy = (price: string) => parsePlace(m, { currency_pair: 'ETH_USDT', side: 'buy', amount: '0.1', price });
  const { sql } = recordedNow(() => {
    // In one turn of the event loop, as the orders arriving together are: one batch.
    for (const price of ['100', '101', '102', '103']) m.place(uid, buy(price), c.s.clock.now());
    commitBatch(c.s.db);
  });
  expect(touching(sql, 'balances')).toEqual(['SELECT', 'UPDATE']);
  expect(touching(sql, 'spot_orders')).toEqual(Array(4).fill('INSERT'));
});

test('an order that a later order of its batch fills is written once, with its last figures', () => {
  const m = marketOf(c.s.db);
  const pair = m.pairs.get('ETH_USDT')!;
  const inside = fromScaled(m.book('ETH_USDT').bestPrice('sell')! - 1, pair.pp);
  const now = c.s.clock.now();
  let maker: OrderRec | undefined;
  const { sql } = recordedNow(() => {
    maker = m.place(c.subs[0]!.uid, parsePlace(m, { currency_pair: 'ETH_USDT', side: 'sell', amount: '0.01', price: inside }), now);
    m.place(c.main.uid, parsePlace(m, { currency_pair: 'ETH_USDT', side: 'buy', amount: '0.01', price: inside }), now);
    commitBatch(c.s.db);
  });
  expect(touching(sql, 'spot_orders')).toEqual(['INSERT', 'INSERT']);
  expect(touching(sql, 'spot_fills')).toEqual(['INSERT']);
  const stored = c.s.db.prepare('SELECT status, left_amount, filled_amount FROM spot_orders WHERE id = ?').get(maker!.id);
  expect(stored).toEqual({ status: 'closed', left_amount: '0', filled_amount: '0.01' });
});

function recordedNow(work: () => void): { sql: string[] } {
  const proto = Object.getPrototypeOf(c.s.db.prepare('SELECT 1')) as Record<string, (this: Statement, ...a: unknown[]) => unknown>;
  const sql: string[] = [];
  const saved = new Map<string, (this: Statement, ...a: unknown[]) => unknown>();
  for (const name of ['run', 'get', 'all', 'iterate']) {
    const original = proto[name]!;
    saved.set(name, original);
    proto[name] = function (this: Statement, ...args: unknown[]) {
      sql.push(this.source.replace(/\s+/g, ' '));
      return original.apply(this, args);
    };
  }
  try {
    work();
    return { sql };
  } finally {
    for (const [name, original] of saved) proto[name] = original;
  }
}
