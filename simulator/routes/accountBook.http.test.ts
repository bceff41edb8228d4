import Decimal from 'decimal.js';
import { describe, expect, test } from 'vitest';
import { failure, useClient, type Key } from '../testkit/client.ts';

// GET /spot/account_book over HTTP: every change of a spot total is an entry (deposits, withdrawals and
// their refunds, transfers of each kind, trades and their fees), each entry's balance is the total after
// it, and the newest entry's balance is the total GET /spot/accounts shows.

const c = useClient();

interface Entry {
  id: string;
  time: number;
  currency: string;
  change: string;
  balance: string;
  type: string;
  code: string;
  text: string;
}

async function total(currency: string, key: Key = c.main): Promise<Decimal> {
  const row = ((await c.get('/spot/accounts', { currency }, key)).json as { available: string; locked: string }[])[0];
  return row ? new Decimal(row.available).plus(row.locked) : new Decimal(0);
}

async function book(query: Record<string, string | number>, key: Key = c.main): Promise<Entry[]> {
  const r = await c.get('/spot/account_book', query, key);
  expect(r.status).toBe(200);
  return r.json as Entry[];
}

describe('GET /spot/account_book', () => {
  test('holds every movement of the period, each with the total after it, newest first', async () => {
    const now = Math.floor(c.s.clock.now());
    const before = { usdt: await total('USDT'), btc: await total('BTC') };
    const sub = c.subs[0]!;
    expect((await c.admin('POST', '/deposits', { uid: c.main.uid, currency: 'USDT', amount: '100.5' })).status).toBe(200);
    const w = await c.post('/withdrawals', { currency: 'USDT', chain: 'TRX', address: 'TXkz7nF8cq3PWy7FHLgLFGfBpzyBK5ZNvA', amount: '12' });
    expect(w.status).toBe(200);
    expect((await c.del(`/withdrawals/${(w.json as { id: string }).id}`)).status).toBe(202);
    // CANCELPEND, then CANCEL and the refund.
    c.step();
    c.step();
    const t = await c.post('/wallet/sub_account_transfers', { sub_account: sub.uid, currency: 'USDT', amount: '7', direction: 'to' });
    expect(t.status).toBe(200);
    const own = await c.post('/wallet/transfers', { currency: 'USDT', from: 'spot', to: 'futures', settle: 'usdt', amount: '3' });
    expect(own.status).toBe(200);
    // A market buy that fills against the demo maker: quote paid, base got, the fee taken from the base.
    const o = await c.post('/spot/orders', { currency_pair: 'BTC_USDT', side: 'buy', type: 'market', amount: '50', time_in_force: 'ioc' });
    expect(o.status).toBe(201);

    const entries = await book({ from: now - 5, to: now + 5, limit: 1000 });
    const usdt = entries.filter((e) => e.currency === 'USDT');
    const btc = entries.filter((e) => e.currency === 'BTC');
    // (Stepping the life cycle moves the demo world's own waiting withdrawals too.)
    expect([...new Set(usdt.map((e) => e.type))]).toEqual(
      expect.arrayContaining(['deposit', 'withdraw', 'withdraw_cancel', 'sub_account_transfer', 'account_transfer', 'trade']),
    );
    expect([...new Set(btc.map((e) => e.type))]).toEqual(expect.arrayContaining(['trade', 'trading_fee']));
    expect(usdt.find((e) => e.type === 'withdraw')).toMatchObject({ change: '-12', text: `w${(w.json as { id: string }).id}` });
    for (const [currency, list, opening] of [
      ['USDT', usdt, before.usdt],
      ['BTC', btc, before.btc],
    ] as const) {
      // Newest first; the newest balance is the total now, and opening + every change = the total now.
      expect(list[0]!.balance).toBe((await total(currency)).toFixed());
      for (let i = 1; i < list.length; i++) expect(list[i]!.time).toBeLessThanOrEqual(list[i - 1]!.time);
      for (let i = 0; i + 1 < list.length; i++)
        expect(new Decimal(list[i]!.balance).minus(list[i]!.change).toFixed()).toBe(new Decimal(list[i + 1]!.balance).toFixed());
      const sum = list.reduce((s, e) => s.plus(e.change), new Decimal(0));
      expect(opening.plus(sum).toFixed()).toBe((await total(currency)).toFixed());
    }
    // The sub-account's own key reads its own book: the transfer in.
    expect((await book({ currency: 'USDT', from: now - 5, to: now + 5 }, sub))[0]).toMatchObject({
      change: '7',
      type: 'sub_account_transfer',
    });
    // Filters and pages.
    expect((await book({ from: now - 5, to: now + 5, type: 'trading_fee' })).every((e) => e.type === 'trading_fee')).toBe(true);
    const page2 = await book({ from: now - 5, to: now + 5, limit: 2, page: 2 });
    expect(page2.map((e) => e.id)).toEqual(entries.slice(2, 4).map((e) => e.id));
    // The seeded world's 90 days of history are in the book (seedBook.ts), each entry naming its record;
    // before them, nothing.
    const seeded = await book({ from: now - 30 * 86400, to: now - 3600, limit: 1000 });
    expect(seeded.length).toBeGreaterThan(0);
    expect(seeded.filter((e) => !/^(w|d|tx|push|small)\d+$/.test(e.text))).toEqual([]);
    expect(await book({ from: now - 120 * 86400, to: now - 100 * 86400 })).toEqual([]);
  });

  test('refuses a range over 30 days, an unknown type and a bad page, naming the parameter', async () => {
    const now = Math.floor(c.s.clock.now());
    const wide = await c.get('/spot/account_book', { from: now - 31 * 86400, to: now });
    expect(failure(wide)).toEqual({ status: 400, label: 'INVALID_PARAM_VALUE' });
    expect(wide.text).toMatch(/30 days/);
    const type = await c.get('/spot/account_book', { type: 'bonus' });
    expect(failure(type)).toEqual({ status: 400, label: 'INVALID_PARAM_VALUE' });
    expect(type.text).toMatch(/type must be one of/);
    expect(failure(await c.get('/spot/account_book', { limit: 1001 }))).toEqual({ status: 400, label: 'INVALID_PARAM_VALUE' });
    expect(failure(await c.get('/spot/account_book', { currency: 'usdt!' }))).toEqual({ status: 400, label: 'INVALID_CURRENCY' });
  });
});
