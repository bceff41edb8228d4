import { expect, test, vi } from 'vitest';
import { Dec } from '../../shared/money.ts';
import { commitBatch } from '../db.ts';
import { ApiError } from '../errors.ts';
import { parsePlace } from '../routes/orderParams.ts';
import { useClient, type Key } from '../testkit/client.ts';
import { sign } from '../testkit/http.ts';
import { Deltas } from './funds.ts';
import { fromScaled } from './scaled.ts';
import { marketOf } from './service.ts';

// The orders of one batch hold their balance changes back until it commits (market/funds.ts): every
// other request that arrives in the same turn of the event loop still answers with them, a batch
// cannot lock more than the account holds, and a refused order leaves nothing behind.

const c = useClient();

/** A signed GET through the server's own routing, handled in the turn it is called in (no socket). */
async function injectGet(path: string, query: string, key: Key = c.main): Promise<unknown> {
  const prefix = new URL(c.s.baseUrl).pathname;
  const ts = String(Math.floor(c.s.clock.now()));
  const r = await c.s.app.inject({
    method: 'GET',
    url: `${prefix}${path}${query ? `?${query}` : ''}`,
    headers: { KEY: key.key, Timestamp: ts, SIGN: sign(key.secret, 'GET', `${prefix}${path}`, query, '', ts) },
  });
  expect(r.statusCode, r.body).toBe(200);
  return JSON.parse(r.body);
}

async function spotBalance(currency: string, key: Key = c.main): Promise<{ available: string; locked: string }> {
  const rows = (await injectGet('/spot/accounts', `currency=${currency}`, key)) as { available: string; locked: string }[];
  const row = rows[0] ?? { available: '0', locked: '0' };
  return { available: row.available, locked: row.locked };
}

function buy(amount: string, price: string, extra: Record<string, unknown> = {}) {
  const m = marketOf(c.s.db);
  return parsePlace(m, { currency_pair: 'ETH_USDT', side: 'buy', amount, price, ...extra });
}

test('a request in the same turn as the orders of an open batch answers with their balances', async () => {
  const before = await spotBalance('USDT');
  // Placed in-process: the batch stays open until this turn of the event loop ends.
  marketOf(c.s.db).place(c.main.uid, buy('0.1', '100'), c.s.clock.now());
  const during = spotBalance('USDT');
  const seen = await during;
  expect(seen).toEqual({
    available: new Dec(before.available).minus(10).toFixed(),
    locked: new Dec(before.locked).plus(10).toFixed(),
  });
  commitBatch(c.s.db);
  expect(await spotBalance('USDT')).toEqual(seen);
});

test('the orders of one batch cannot lock more than the account holds between them; a refusal leaves nothing', async () => {
  const sub = c.subs[0]!;
  const before = spotBalance('USDT', sub);
  const { available } = await before;
  const have = new Dec(available);
  expect(have.gt(30)).toBe(true);
  // Each locks 40% of what the account holds (at a price that cannot fill), so the third is short.
  const amount = have.times(0.4).div(100).toDecimalPlaces(4, Dec.ROUND_DOWN);
  const lock = amount.times(100);
  const m = marketOf(c.s.db);
  const now = c.s.clock.now();
  m.place(sub.uid, buy(amount.toFixed(), '100'), now);
  m.place(sub.uid, buy(amount.toFixed(), '100'), now);
  let refusal: unknown;
  try {
    m.place(sub.uid, buy(amount.toFixed(), '100'), now);
  } catch (e) {
    refusal = e;
  }
  expect(refusal).toBeInstanceOf(ApiError);
  const left = have.minus(lock.times(2));
  expect((refusal as ApiError).label).toBe('BALANCE_NOT_ENOUGH');
  expect((refusal as ApiError).message).toContain(`holds ${left.toFixed()} USDT available`);
  // A fill-or-kill that cannot fill is refused after its lock: nothing of it stays in the batch.
  expect(() => m.place(sub.uid, buy('0.05', '100', { time_in_force: 'fok' }), now)).toThrow(
    expect.objectContaining({ label: 'FOK_NOT_FILL' }),
  );
  commitBatch(c.s.db);
  expect(await spotBalance('USDT', sub)).toEqual({
    available: left.toFixed(),
    locked: new Dec((await before).locked).plus(lock.times(2)).toFixed(),
  });
});

test('a request in the same turn sees the orders and trades of an open batch', async () => {
  const m = marketOf(c.s.db);
  const now = c.s.clock.now();
  const sub = c.subs[1]!;
  // A sell resting one tick below the best ask, then a buy of the same batch that takes it: both orders
  // and the trade are held.
  const pair = m.pairs.get('ETH_USDT')!;
  const inside = fromScaled(m.book('ETH_USDT').bestPrice('sell')! - 1, pair.pp);
  const sell = m.place(sub.uid, parsePlace(m, { currency_pair: 'ETH_USDT', side: 'sell', amount: '0.01', price: inside }), now);
  expect(sell.status).toBe('open');
  const taker = m.place(c.main.uid, buy('0.01', inside), now);
  const mine = (await injectGet(`/spot/orders/${sell.id}`, 'currency_pair=ETH_USDT', sub)) as { status: string; finish_as: string };
  expect([mine.status, mine.finish_as]).toEqual(['closed', 'filled']);
  const trades = (await injectGet('/spot/my_trades', 'currency_pair=ETH_USDT', sub)) as { order_id: string; role: string }[];
  expect(trades[0]).toMatchObject({ order_id: String(sell.id), role: 'maker' });
  const taken = (await injectGet(`/spot/orders/${taker.id}`, 'currency_pair=ETH_USDT')) as { status: string; filled_amount: string };
  expect([taken.status, taken.filled_amount]).toEqual(['closed', '0.01']);
  commitBatch(c.s.db);
});

test('an order that fails after the book moved leaves nothing; the batch keeps the orders before it', async () => {
  const m = marketOf(c.s.db);
  const now = c.s.clock.now();
  const kept = m.place(c.main.uid, buy('0.1', '101'), now);
  // A settlement the ledger refuses (a bug of the market, were it real), in the middle of the batch.
  const apply = vi.spyOn(Deltas.prototype, 'apply').mockImplementationOnce(() => {
    throw new Error('settlement refused');
  });
  let failed: OrderRecLike | undefined;
  expect(() => {
    failed = m.place(c.main.uid, buy('0.1', '102'), now);
  }).toThrow('settlement refused');
  apply.mockRestore();
  expect(failed).toBeUndefined();
  // The next order loads the market again, from the store and what the batch holds.
  const after = marketOf(c.s.db).place(c.main.uid, buy('0.1', '103'), now);
  commitBatch(c.s.db);
  // The market was rebuilt from the store and the batch's first order; nothing of the failed one was
  // written (the next order took its id).
  const rebuilt = marketOf(c.s.db);
  expect(rebuilt).not.toBe(m);
  expect(rebuilt.open.has(kept.id)).toBe(true);
  expect(rebuilt.open.has(after.id)).toBe(true);
  expect(after.id).toBe(kept.id + 1);
  expect(c.s.db.prepare('SELECT id FROM spot_orders WHERE id > ? ORDER BY id').all(kept.id)).toEqual([{ id: after.id }]);
});

type OrderRecLike = { id: number };
