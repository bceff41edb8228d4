import Decimal from 'decimal.js';
import { describe, expect, test } from 'vitest';
import { failure, spotAvailable, useClient } from '../testkit/client.ts';
import { cachedTotalCount } from './wallet.ts';

// Contract tests of the §4.1 reads, the §4.4 account and market reads, and the ledger's admin routes.

const c = useClient();

const DAY = 86400;

describe('wallet reads', () => {
  test('currency_chains is public; currency is required; low-cap currencies are refused', async () => {
    const r = await c.publicGet('/wallet/currency_chains', { currency: 'USDT' });
    expect(r.status).toBe(200);
    expect((r.json as { chain: string }[]).map((x) => x.chain)).toEqual(['ETH', 'TRX', 'TON']);
    expect(r.json[2]).toMatchObject({ is_tag: 1, decimal: '6', is_withdraw_disabled: 0 });
    const btc = await c.publicGet('/wallet/currency_chains', { currency: 'BTC' });
    expect((btc.json as { chain: string; is_withdraw_disabled: number }[]).find((x) => x.chain === 'BSC')!.is_withdraw_disabled).toBe(1);
    expect(failure(await c.publicGet('/wallet/currency_chains'))).toEqual({ status: 400, label: 'MISSING_REQUIRED_PARAM' });
    expect(failure(await c.publicGet('/wallet/currency_chains', { currency: 'PEPEX' }))).toEqual({
      status: 400,
      label: 'INVALID_CURRENCY',
    });
    expect((await c.get('/wallet/getLowCapExchangeList')).json).toEqual(['PEPEX', 'MOONC']);
  });

  test('deposit_address: one address per chain, a memo on tag chains, stable across calls', async () => {
    const a = await c.get('/wallet/deposit_address', { currency: 'USDT' });
    expect(a.status).toBe(200);
    const chains = a.json.multichain_addresses as {
      chain: string;
      address: string;
      payment_id: string;
      payment_name: string;
      obtain_failed: number;
    }[];
    expect(chains.map((x) => x.chain)).toEqual(['ETH', 'TRX', 'TON']);
    expect(chains.find((x) => x.chain === 'TON')).toMatchObject({ payment_name: 'Memo', obtain_failed: 0 });
    expect(chains.find((x) => x.chain === 'TON')!.payment_id).not.toBe('');
    expect(a.json.address).toBe(chains[0]!.address);
    expect((await c.get('/wallet/deposit_address', { currency: 'USDT' })).json).toEqual(a.json);
    expect(failure(await c.get('/wallet/deposit_address'))).toEqual({ status: 400, label: 'MISSING_REQUIRED_PARAM' });
  });

  test('withdraw_status: fees per chain and limits', async () => {
    const r = await c.get('/wallet/withdraw_status', { currency: 'USDT' });
    expect(r.json[0]).toMatchObject({
      currency: 'USDT',
      withdraw_amount_mini: '10',
      withdraw_eachtime_limit: '1000000',
      withdraw_fix_on_chains: { ETH: '4.5', TRX: '1', TON: '0.3' },
    });
    const all = await c.get('/wallet/withdraw_status');
    expect((all.json as { currency: string }[]).map((x) => x.currency)).not.toContain('PEPEX');
  });

  test('saved_address: verified and not, filtered by chain, limit at most 100', async () => {
    const r = await c.get('/wallet/saved_address', { currency: 'USDT' });
    const verified = new Set((r.json as { verified: string }[]).map((x) => x.verified));
    expect(verified).toEqual(new Set(['0', '1']));
    expect(
      (await c.get('/wallet/saved_address', { currency: 'USDT', chain: 'TRX' })).json.every((x: { chain: string }) => x.chain === 'TRX'),
    ).toBe(true);
    expect(failure(await c.get('/wallet/saved_address', { currency: 'USDT', limit: 101 }))).toEqual({
      status: 400,
      label: 'INVALID_PARAM_VALUE',
    });
    expect(failure(await c.get('/wallet/saved_address'))).toEqual({ status: 400, label: 'MISSING_REQUIRED_PARAM' });
  });

  test('fee: one schedule; unknown pair and settle refused', async () => {
    expect((await c.get('/wallet/fee')).json).toMatchObject({ user_id: Number(c.main.uid), taker_fee: '0.002' });
    expect(failure(await c.get('/wallet/fee', { currency_pair: 'NOPE_USDT' }))).toEqual({ status: 400, label: 'INVALID_CURRENCY_PAIR' });
    expect(failure(await c.get('/wallet/fee', { settle: 'EUR' }))).toEqual({ status: 400, label: 'INVALID_PARAM_VALUE' });
  });

  test('total_balance is cached for a minute per uid and currency (§2.9)', async () => {
    const first = (await c.get('/wallet/total_balance')).json.total.amount as string;
    const w = await c.post('/withdrawals', {
      currency: 'USDT',
      chain: 'TRX',
      address: 'TXkz7nF8cq3PWy7FHLgLFGfBpzyBK5ZNvA',
      amount: '1000',
    });
    expect(w.status).toBe(200);
    expect((await c.get('/wallet/total_balance')).json.total.amount).toBe(first);
    c.s.clock.advance(61);
    expect((await c.get('/wallet/total_balance')).json.total.amount).toBe(new Decimal(first).minus(1000).toFixed());
    expect(failure(await c.get('/wallet/total_balance', { currency: 'EUR' }))).toEqual({ status: 400, label: 'INVALID_PARAM_VALUE' });
  });

  test("total_balance's cache keeps only the figures of the last minute, not every uid and currency asked", async () => {
    const currencies = ['USDT', 'BTC', 'USD', 'CNY'];
    for (const key of [c.main, ...c.subs])
      for (const currency of currencies) expect((await c.get('/wallet/total_balance', { currency }, key)).status).toBe(200);
    const asked = (1 + c.subs.length) * currencies.length;
    expect(cachedTotalCount(c.s.db)).toBeGreaterThanOrEqual(asked);
    c.s.clock.advance(61);
    const again = await c.get('/wallet/total_balance', { currency: 'BTC' });
    expect(again.json.total.currency).toBe('BTC');
    expect(cachedTotalCount(c.s.db)).toBe(1);
  });

  test('small balances: listed, converted to GT, and kept in the history', async () => {
    const list = (await c.get('/wallet/small_balance')).json as {
      currency: string;
      available_balance: string;
      convertible_to_gt: string;
    }[];
    const doge = list.find((x) => x.currency === 'DOGE')!;
    expect(doge).toBeDefined();
    const gt0 = new Decimal(await spotAvailable(c, 'GT'));
    expect((await c.post('/wallet/small_balance', { currency: ['DOGE'] })).status).toBe(200);
    expect(await spotAvailable(c, 'DOGE')).toBe('0');
    expect(await spotAvailable(c, 'GT')).toBe(gt0.plus(doge.convertible_to_gt).toFixed());
    const hist = await c.get('/wallet/small_balance_history', { currency: 'DOGE' });
    expect(hist.json[0]).toMatchObject({ currency: 'DOGE', amount: doge.available_balance, gt_amount: doge.convertible_to_gt });
    expect(failure(await c.post('/wallet/small_balance', {}))).toEqual({ status: 400, label: 'MISSING_REQUIRED_PARAM' });
    expect(failure(await c.post('/wallet/small_balance', { currency: ['USDT'] }))).toEqual({ status: 400, label: 'INVALID_PARAM_VALUE' });
    expect(failure(await c.get('/wallet/small_balance_history', { limit: 101 }))).toEqual({ status: 400, label: 'INVALID_PARAM_VALUE' });
  });
});

describe('record lists (§8.1)', () => {
  test.each([
    ['/wallet/withdrawals', 'timestamp'],
    ['/wallet/deposits', 'timestamp'],
    ['/wallet/sub_account_transfers', 'timest'],
  ])('%s: with only `to`, `from` is still 7 days before now (§4.1, §8.1); a `to` older than that is an empty list', async (path, field) => {
    const now = Math.floor(c.s.clock.now());
    const to = now - 3 * DAY;
    const inRange = (await c.get(path, { to, limit: 500 })).json as Array<Record<string, string>>;
    const wider = (await c.get(path, { from: now - 10 * DAY, to, limit: 500 })).json as Array<Record<string, string>>;
    // The demo world has records on both sides of the 7-day line, so counting back from `to` would show.
    expect(wider.some((r) => Number(r[field]) < now - 7 * DAY)).toBe(true);
    expect(inRange.length).toBeGreaterThan(0);
    expect(inRange.every((r) => Number(r[field]) >= now - 7 * DAY && Number(r[field]) <= to)).toBe(true);
    const old = await c.get(path, { to: now - 8 * DAY });
    expect(old.status).toBe(200);
    expect(old.json).toEqual([]);
  });

  test('withdrawals: 7-day default window, 30-day maximum, limit at most 1000, newest first', async () => {
    const now = Math.floor(c.s.clock.now());
    const recent = (await c.get('/wallet/withdrawals', { limit: 1000 })).json as { timestamp: string }[];
    expect(recent.length).toBeGreaterThan(0);
    expect(recent.every((x) => Number(x.timestamp) >= now - 7 * DAY)).toBe(true);
    const ts = recent.map((x) => Number(x.timestamp));
    expect([...ts].sort((a, b) => b - a)).toEqual(ts);
    const month = (await c.get('/wallet/withdrawals', { from: now - 30 * DAY, to: now, limit: 1000 })).json as unknown[];
    expect(month.length).toBeGreaterThan(recent.length);
    const page2 = (await c.get('/wallet/withdrawals', { from: now - 30 * DAY, to: now, limit: 10, offset: 10 })).json as unknown[];
    expect(page2).toEqual(month.slice(10, 20));
    expect(failure(await c.get('/wallet/withdrawals', { from: now - 31 * DAY, to: now }))).toEqual({
      status: 400,
      label: 'INVALID_PARAM_VALUE',
    });
    expect(failure(await c.get('/wallet/withdrawals', { from: now, to: now - 10 }))).toEqual({ status: 400, label: 'INVALID_PARAM_VALUE' });
    expect(failure(await c.get('/wallet/withdrawals', { limit: 1001 }))).toEqual({ status: 400, label: 'INVALID_PARAM_VALUE' });
    expect(failure(await c.get('/wallet/withdrawals', { withdraw_id: 'x12' }))).toEqual({ status: 400, label: 'INVALID_PARAM_VALUE' });
    // withdraw_id turns the time filter off: an old record is found by its id.
    const old = (await c.get('/wallet/withdrawals', { from: now - 80 * DAY, to: now - 60 * DAY, limit: 1 })).json[0];
    expect((await c.get('/wallet/withdrawals', { withdraw_id: old.id })).json).toEqual([old]);
  });

  test('every §3.1 list status is present in the demo world', async () => {
    const now = Math.floor(c.s.clock.now());
    const seen = new Set<string>();
    for (let to = now; to > now - 90 * DAY; to -= 30 * DAY) {
      for (const x of (await c.get('/wallet/withdrawals', { from: to - 30 * DAY, to, limit: 1000 })).json as { status: string }[])
        seen.add(x.status);
    }
    for (const s of [
      'BCODE',
      'CANCEL',
      'CANCELPEND',
      'DONE',
      'EXTPEND',
      'FAIL',
      'FVERIFY',
      'LOCKED',
      'MANUAL',
      'REJECT',
      'REQUEST',
      'REVIEW',
    ])
      expect(seen).toContain(s);
  });

  test('deposits: limit at most 500; sub-account transfers and push have their windows', async () => {
    expect((await c.get('/wallet/deposits', { limit: 500 })).status).toBe(200);
    expect(failure(await c.get('/wallet/deposits', { limit: 501 }))).toEqual({ status: 400, label: 'INVALID_PARAM_VALUE' });
    const now = Math.floor(c.s.clock.now());
    expect(failure(await c.get('/wallet/sub_account_transfers', { from: now - 40 * DAY }))).toEqual({
      status: 400,
      label: 'INVALID_PARAM_VALUE',
    });
    expect(failure(await c.get('/wallet/sub_account_transfers', { sub_uid: '10000101,abc' }))).toEqual({
      status: 400,
      label: 'INVALID_PARAM_VALUE',
    });
    // UID transfers are not bound to 30 days.
    expect((await c.get('/wallet/push', { from: now - 90 * DAY, to: now })).status).toBe(200);
    expect(failure(await c.get('/wallet/push', { transaction_type: 'both' }))).toEqual({ status: 400, label: 'INVALID_PARAM_VALUE' });
  });
});

describe('sub-account balances', () => {
  test('spot: page-limit with default 20 and maximum 100; sub_uid list; main key only', async () => {
    expect(((await c.get('/wallet/sub_account_balances')).json as unknown[]).length).toBe(20);
    const p2 = (await c.get('/wallet/sub_account_balances', { page: 2 })).json as { uid: string }[];
    expect(p2.map((x) => x.uid)).toEqual(['10000121', '10000122', '10000123', '10000124']);
    expect(failure(await c.get('/wallet/sub_account_balances', { limit: 101 }))).toEqual({ status: 400, label: 'INVALID_PARAM_VALUE' });
    const two = (await c.get('/wallet/sub_account_balances', { sub_uid: '10000102,10000101' })).json as {
      uid: string;
      available: Record<string, string>;
      locking: Record<string, string>;
    }[];
    expect(two.map((x) => x.uid)).toEqual(['10000102', '10000101']);
    expect(two[0]!.available.USDT).toBe(await spotAvailable(c, 'USDT', c.subs[1]));
    expect(failure(await c.get('/wallet/sub_account_balances', { sub_uid: '10000001' }))).toEqual({
      status: 404,
      label: 'SUB_ACCOUNT_NOT_FOUND',
    });
    expect(failure(await c.get('/wallet/sub_account_balances', {}, c.subs[0]))).toEqual({ status: 401, label: 'FORBIDDEN' });
  });

  test('margin, futures and cross margin: every sub-account when sub_uid is omitted', async () => {
    for (const p of [
      '/wallet/sub_account_margin_balances',
      '/wallet/sub_account_futures_balances',
      '/wallet/sub_account_cross_margin_balances',
    ]) {
      expect(((await c.get(p)).json as unknown[]).length).toBe(24);
    }
    const fut = (await c.get('/wallet/sub_account_futures_balances', { sub_uid: '10000101', settle: 'usdt' })).json;
    expect(Object.keys(fut[0].available)).toEqual(['usdt']);
    expect(fut[0].available.usdt).toMatchObject({ currency: 'USDT', margin_mode_name: 'classic', position_mode: 'single' });
    expect(failure(await c.get('/wallet/sub_account_futures_balances', { settle: 'eur' }))).toEqual({
      status: 400,
      label: 'INVALID_PARAM_VALUE',
    });
    const cross = (await c.get('/wallet/sub_account_cross_margin_balances', { sub_uid: '10000101' })).json;
    expect(cross[0].available.user_id).toBe(10000101);
    const margin = (await c.get('/wallet/sub_account_margin_balances', { sub_uid: '10000101' })).json;
    expect(margin[0].available.map((m: { currency_pair: string }) => m.currency_pair)).toEqual(['BTC_USDT', 'ETH_USDT']);
  });

  test('GET /sub_accounts lists names; the locked one has state 2', async () => {
    const list = (await c.get('/sub_accounts')).json as { login_name: string; user_id: number; state: number }[];
    expect(list).toHaveLength(24);
    expect(list[0]).toMatchObject({ login_name: 'market_making_1', user_id: 10000101, state: 1 });
    expect(list.find((x) => x.user_id === 10000123)!.state).toBe(2);
  });
});

describe('§4.4 account and market reads', () => {
  test('spot time, currencies, pairs, tickers are public', async () => {
    const t = await c.publicGet('/spot/time');
    expect(Math.abs(t.json.server_time / 1000 - c.s.clock.now())).toBeLessThan(5);
    const cur = (await c.publicGet('/spot/currencies')).json as { currency: string; chains: unknown[] }[];
    expect(cur.length).toBeGreaterThanOrEqual(8);
    expect(cur.find((x) => x.currency === 'USDT')!.chains).toHaveLength(3);
    expect(((await c.publicGet('/spot/currency_pairs')).json as { id: string }[]).map((p) => p.id)).toContain('BTC_USDT');
    expect((await c.publicGet('/spot/tickers', { currency_pair: 'BTC_USDT' })).json[0]).toMatchObject({
      currency_pair: 'BTC_USDT',
      last: '64250.5',
    });
    expect(failure(await c.publicGet('/spot/tickers', { currency_pair: 'NOPE_X' }))).toEqual({
      status: 400,
      label: 'INVALID_CURRENCY_PAIR',
    });
  });

  test('own accounts: spot, margin, futures, cross margin', async () => {
    expect(((await c.get('/spot/accounts')).json as { currency: string }[]).map((x) => x.currency)).toContain('USDT');
    expect(failure(await c.get('/margin/accounts', { currency_pair: 'NOPE' }))).toEqual({ status: 400, label: 'INVALID_CURRENCY_PAIR' });
    expect((await c.get('/futures/btc/accounts')).json.currency).toBe('BTC');
    expect(failure(await c.get('/futures/eur/accounts'))).toEqual({ status: 400, label: 'INVALID_PARAM_VALUE' });
    expect((await c.get('/margin/cross/accounts')).json.user_id).toBe(Number(c.main.uid));
  });

  test('permission groups: the read-only key reads but cannot withdraw or transfer', async () => {
    expect((await c.get('/wallet/withdrawals', {}, c.readOnly)).status).toBe(200);
    expect(
      failure(
        await c.post(
          '/withdrawals',
          { currency: 'USDT', chain: 'TRX', address: 'TXkz7nF8cq3PWy7FHLgLFGfBpzyBK5ZNvA', amount: '25' },
          c.readOnly,
        ),
      ),
    ).toEqual({ status: 401, label: 'READ_ONLY' });
    expect(
      failure(
        await c.post('/wallet/transfers', { currency: 'USDT', from: 'spot', to: 'futures', settle: 'usdt', amount: '1' }, c.readOnly),
      ),
    ).toEqual({ status: 401, label: 'READ_ONLY' });
  });
});

describe('admin routes of the ledger', () => {
  test('counts, deposit credit, new sub-account, reset', async () => {
    const now = Math.floor(c.s.clock.now());
    const counts = (await c.admin('GET', `/counts?uid=${c.main.uid}&from=${now - 30 * DAY}&to=${now}`)).json;
    const listed = ((await c.get('/wallet/withdrawals', { from: now - 30 * DAY, to: now, limit: 1000 })).json as unknown[]).length;
    expect(counts).toMatchObject({ withdrawals: listed, sub_accounts: 24 });

    const before = new Decimal(await spotAvailable(c, 'ETH'));
    const dep = await c.admin('POST', '/deposits', { uid: c.main.uid, currency: 'ETH', amount: '1.25' });
    expect(dep.json).toMatchObject({ currency: 'ETH', amount: '1.25', status: 'DONE' });
    expect(await spotAvailable(c, 'ETH')).toBe(before.plus('1.25').toFixed());

    const sub = (await c.admin('POST', `/accounts/${c.main.uid}/sub_accounts`, { name: 'new_desk' })).json as {
      uid: string;
      key: string;
      secret: string;
    };
    expect(((await c.get('/sub_accounts')).json as { login_name: string }[]).map((x) => x.login_name)).toContain('new_desk');
    expect((await c.get('/spot/accounts', {}, { uid: sub.uid, key: sub.key, secret: sub.secret })).json).toEqual([]);

    expect((await c.admin('POST', '/reset')).status).toBe(200);
    expect(await spotAvailable(c, 'ETH')).not.toBe(before.plus('1.25').toFixed());
    expect(((await c.get('/sub_accounts')).json as unknown[]).length).toBe(24);
    expect(failure(await c.admin('POST', '/withdrawals/w1/status', { status: 'NOPE' })).label).toBe('INVALID_PARAM_VALUE');
  });
});
