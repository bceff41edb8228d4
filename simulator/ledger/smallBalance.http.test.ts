import Decimal from 'decimal.js';
import { describe, expect, test } from 'vitest';
import { failure, spotAvailable, useClient } from '../testkit/client.ts';

// The threshold of smallBalance.ts, over HTTP: a spot holding worth under 5 USDT at the Sandbox's prices
// is a small balance (listed, convertible to GT); one worth 5 USDT or more is neither (simulator/README.md,
// GET /wallet/small_balance). The 5 is written here, not read from the code, so that a changed threshold
// fails this test.

const THRESHOLD_USDT = new Decimal(5);

const c = useClient();

const listed = async (key: (typeof c.subs)[number]) =>
  ((await c.get('/wallet/small_balance', {}, key)).json as { currency: string; available_balance: string }[]).map((x) => x.currency);

/** Tops the sub-account's DOGE up to a holding worth `factor` × 5 USDT at the Sandbox's DOGE price. */
async function holding(key: (typeof c.subs)[number], factor: string): Promise<string> {
  const price = (c.s.db.prepare("SELECT usdt FROM prices WHERE currency = 'DOGE'").get() as { usdt: string }).usdt;
  const amount = THRESHOLD_USDT.div(price).times(factor).toDecimalPlaces(8, Decimal.ROUND_DOWN);
  const held = new Decimal(await spotAvailable(c, 'DOGE', key));
  expect(held.lt(amount)).toBe(true);
  expect((await c.admin('POST', '/deposits', { uid: key.uid, currency: 'DOGE', amount: amount.minus(held).toFixed() })).status).toBe(200);
  expect(await spotAvailable(c, 'DOGE', key)).toBe(amount.toFixed());
  // What it is worth sits on the side of 5 USDT the test means.
  expect(amount.times(price).lt(THRESHOLD_USDT)).toBe(new Decimal(factor).lt(1));
  return amount.toFixed();
}

describe('the small-balance threshold (5 USDT)', () => {
  test('a holding worth just under 5 USDT is listed and converts to GT', async () => {
    const sub = c.subs[0]!;
    await holding(sub, '0.999');
    expect(await listed(sub)).toContain('DOGE');
    expect((await c.post('/wallet/small_balance', { currency: ['DOGE'] }, sub)).status).toBe(200);
    expect(await spotAvailable(c, 'DOGE', sub)).toBe('0');
  });

  test('a holding worth just over 5 USDT is not listed and is refused as not small, with nothing moved', async () => {
    const sub = c.subs[1]!;
    const amount = await holding(sub, '1.001');
    expect(await listed(sub)).not.toContain('DOGE');
    expect(failure(await c.post('/wallet/small_balance', { currency: ['DOGE'] }, sub))).toEqual({
      status: 400,
      label: 'INVALID_PARAM_VALUE',
    });
    // is_all converts every small balance: this one is not among them.
    expect((await c.post('/wallet/small_balance', { is_all: true }, sub)).status).toBe(200);
    expect(await spotAvailable(c, 'DOGE', sub)).toBe(amount);
  });
});
