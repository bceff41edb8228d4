import { expect, test } from 'vitest';
import { Dec } from '../../shared/money.ts';
import { commitBatch } from '../db.ts';
import { ApiError } from '../errors.ts';
import { parsePlace } from '../routes/orderParams.ts';
import { useClient, type Key } from '../testkit/client.ts';
import { sign } from '../testkit/http.ts';
import { marketOf } from './service.ts';

// The orders of one batch hold their balance changes back until it commits (market/funds.ts): every
// other request that arrives in the same turn of the event loop still answers with them, a batch
// cannot lock more than the account holds, and a refused order leaves nothing behind.

const c = useClient();

/** GET /spot/accounts for one currency through the server's own routing, in the turn it is called in. */
async function spotBalance(currency: string, key: Key = c.main): Promise<{ available: string; locked: string }> {
  const prefix = new URL(c.s.baseUrl).pathname;
  const ts = String(Math.floor(c.s.clock.now()));
  const query = `currency=${currency}`;
  const r = await c.s.app.inject({
    method: 'GET',
    url: `${prefix}/spot/accounts?${query}`,
    headers: { KEY: key.key, Timestamp: ts, SIGN: sign(key.secret, 'GET', `${prefix}/spot/accounts`, query, '', ts) },
  });
  expect(r.statusCode, r.body).toBe(200);
  const row = (JSON.parse(r.body) as { available: string; locked: string }[])[0] ?? { available: '0', locked: '0' };
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
