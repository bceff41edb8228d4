import Decimal from 'decimal.js';
import { describe, expect, test } from 'vitest';
import { failure, spotAvailable, useClient } from '../testkit/client.ts';

// Contract tests of the §4.1 transfer endpoints over HTTP against a demo-world Sandbox.

const c = useClient();

const LOCKED_SUB = '10000123';

async function futuresAvailable(key = c.main, settle = 'usdt'): Promise<string> {
  return (await c.get(`/futures/${settle}/accounts`, {}, key)).json.available as string;
}

describe('POST /wallet/transfers', () => {
  test('spot -> futures moves the amount and answers a tx_id', async () => {
    const spot0 = new Decimal(await spotAvailable(c, 'USDT'));
    const fut0 = new Decimal(await futuresAvailable());
    const r = await c.post('/wallet/transfers', { currency: 'USDT', from: 'spot', to: 'futures', settle: 'usdt', amount: '100.5' });
    expect(r.status).toBe(200);
    expect(typeof r.json.tx_id).toBe('number');
    expect(await spotAvailable(c, 'USDT')).toBe(spot0.minus('100.5').toFixed());
    expect(await futuresAvailable()).toBe(fut0.plus('100.5').toFixed());
  });

  test('spot -> margin needs currency_pair; the currency must belong to it', async () => {
    expect(
      (await c.post('/wallet/transfers', { currency: 'USDT', from: 'spot', to: 'margin', currency_pair: 'BTC_USDT', amount: '10' })).status,
    ).toBe(200);
    expect(failure(await c.post('/wallet/transfers', { currency: 'USDT', from: 'spot', to: 'margin', amount: '10' }))).toEqual({
      status: 400,
      label: 'MISSING_REQUIRED_PARAM',
    });
    expect(
      failure(await c.post('/wallet/transfers', { currency: 'SOL', from: 'spot', to: 'margin', currency_pair: 'BTC_USDT', amount: '1' })),
    ).toEqual({ status: 400, label: 'INVALID_PARAM_VALUE' });
    expect(
      failure(await c.post('/wallet/transfers', { currency: 'USDT', from: 'spot', to: 'margin', currency_pair: 'NOPE_USDT', amount: '1' })),
    ).toEqual({ status: 400, label: 'INVALID_CURRENCY_PAIR' });
  });

  test('refusals', async () => {
    const cases: [Record<string, unknown>, string][] = [
      [{ currency: 'USDT', from: 'spot', to: 'futures', amount: '1' }, 'MISSING_REQUIRED_PARAM'],
      [{ currency: 'BTC', from: 'spot', to: 'futures', settle: 'usdt', amount: '1' }, 'INVALID_PARAM_VALUE'],
      [{ currency: 'USDT', from: 'spot', to: 'spot', amount: '1' }, 'INVALID_PARAM_VALUE'],
      [{ currency: 'USDT', from: 'spot', to: 'moon', amount: '1' }, 'INVALID_PARAM_VALUE'],
      [{ currency: 'USDT', from: 'spot', to: 'futures', settle: 'usdt', amount: '1.000000001' }, 'INVALID_PARAM_VALUE'],
      [{ currency: 'USDT', from: 'spot', to: 'futures', settle: 'usdt', amount: '0' }, 'INVALID_PARAM_VALUE'],
      [{ currency: 'USDT', from: 'spot', to: 'futures', settle: 'usdt', amount: '99999999999' }, 'BALANCE_NOT_ENOUGH'],
      [{ currency: 'NOPE', from: 'spot', to: 'futures', settle: 'usdt', amount: '1' }, 'INVALID_CURRENCY'],
      [{ from: 'spot', to: 'futures', amount: '1' }, 'MISSING_REQUIRED_PARAM'],
    ];
    for (const [body, label] of cases)
      expect({ body, ...failure(await c.post('/wallet/transfers', body)) }).toEqual({ body, status: 400, label });
  });

  test('opening a futures account by a transfer: USER_NOT_FOUND before, an account after', async () => {
    expect(failure(await c.get('/futures/usd/accounts'))).toEqual({ status: 404, label: 'USER_NOT_FOUND' });
    expect(
      (await c.post('/wallet/transfers', { currency: 'BTC', from: 'spot', to: 'futures', settle: 'usd', amount: '0.01' })).status,
    ).toBe(200);
    expect((await c.get('/futures/usd/accounts')).json).toMatchObject({ available: '0.01', currency: 'USD' });
  });
});

describe('main <-> sub transfers', () => {
  test('to and from a sub-account, listed with client_order_id, status by id', async () => {
    const sub = c.subs[1]!;
    const sub0 = new Decimal(await spotAvailable(c, 'USDT', sub));
    const r = await c.post('/wallet/sub_account_transfers', {
      sub_account: sub.uid,
      currency: 'USDT',
      amount: '70',
      direction: 'to',
      client_order_id: 'rebal-001',
    });
    expect(r.status).toBe(200);
    expect(await spotAvailable(c, 'USDT', sub)).toBe(sub0.plus(70).toFixed());
    const back = await c.post('/wallet/sub_account_transfers', { sub_account: sub.uid, currency: 'USDT', amount: '20', direction: 'from' });
    expect(back.status).toBe(200);
    expect(await spotAvailable(c, 'USDT', sub)).toBe(sub0.plus(50).toFixed());
    const list = await c.get('/wallet/sub_account_transfers', { sub_uid: sub.uid });
    expect(list.json[0]).toMatchObject({ sub_account: sub.uid, direction: 'from', amount: '20', status: 'success', uid: c.main.uid });
    expect(list.json[1]).toMatchObject({ client_order_id: 'rebal-001', direction: 'to', amount: '70', sub_account_type: 'spot' });
    expect((await c.get('/wallet/order_status', { client_order_id: 'rebal-001' })).json).toEqual({
      tx_id: String(r.json.tx_id),
      status: 'SUCCESS',
    });
    expect((await c.get('/wallet/order_status', { tx_id: r.json.tx_id })).json).toEqual({ tx_id: String(r.json.tx_id), status: 'SUCCESS' });
    // §2.5: a reused client_order_id is refused; nothing moves.
    expect(
      failure(
        await c.post('/wallet/sub_account_transfers', {
          sub_account: sub.uid,
          currency: 'USDT',
          amount: '70',
          direction: 'to',
          client_order_id: 'rebal-001',
        }),
      ),
    ).toEqual({ status: 400, label: 'ORDER_EXISTS' });
    expect(await spotAvailable(c, 'USDT', sub)).toBe(sub0.plus(50).toFixed());
  });

  test('into a sub-account futures account', async () => {
    const sub = c.subs[1]!;
    const before = new Decimal(await futuresAvailable(sub));
    expect(
      (
        await c.post('/wallet/sub_account_transfers', {
          sub_account: sub.uid,
          sub_account_type: 'futures',
          currency: 'USDT',
          amount: '5',
          direction: 'to',
        })
      ).status,
    ).toBe(200);
    expect(await futuresAvailable(sub)).toBe(before.plus(5).toFixed());
  });

  test('refusals', async () => {
    const base = { sub_account: c.subs[1]!.uid, currency: 'USDT', amount: '1', direction: 'to' };
    const cases: [Record<string, unknown>, number, string][] = [
      [{ sub_account: '99999999' }, 404, 'SUB_ACCOUNT_NOT_FOUND'],
      [{ sub_account: LOCKED_SUB }, 400, 'SUB_ACCOUNT_LOCKED'],
      [{ direction: 'sideways' }, 400, 'INVALID_PARAM_VALUE'],
      [{ direction: undefined }, 400, 'MISSING_REQUIRED_PARAM'],
      [{ sub_account_type: 'margin' }, 400, 'INVALID_PARAM_VALUE'],
      [{ client_order_id: 'has space' }, 400, 'INVALID_CLIENT_ORDER_ID'],
      [{ client_order_id: 'x'.repeat(65) }, 400, 'INVALID_CLIENT_ORDER_ID'],
      [{ amount: '99999999999' }, 400, 'BALANCE_NOT_ENOUGH'],
      [{ direction: 'from', amount: '99999999999' }, 400, 'BALANCE_NOT_ENOUGH'],
    ];
    for (const [patch, status, label] of cases) {
      const body = Object.fromEntries(Object.entries({ ...base, ...patch }).filter(([, v]) => v !== undefined));
      expect({ patch, ...failure(await c.post('/wallet/sub_account_transfers', body)) }).toEqual({ patch, status, label });
    }
    // §5.5: sub-account keys cannot call it.
    expect(failure(await c.post('/wallet/sub_account_transfers', base, c.subs[0]))).toEqual({ status: 401, label: 'FORBIDDEN' });
    expect(failure(await c.get('/wallet/order_status'))).toEqual({ status: 400, label: 'MISSING_REQUIRED_PARAM' });
    expect(failure(await c.get('/wallet/order_status', { client_order_id: 'never-sent' }))).toEqual({
      status: 404,
      label: 'ORDER_NOT_FOUND',
    });
    expect(failure(await c.get('/wallet/order_status', { tx_id: 'abc' }))).toEqual({ status: 400, label: 'INVALID_PARAM_VALUE' });
  });
});

describe('POST /wallet/sub_account_to_sub_account', () => {
  test('by the main key, and by the source sub-account key only', async () => {
    const [a, b] = [c.subs[0]!, c.subs[2]!];
    const a0 = new Decimal(await spotAvailable(c, 'USDT', a));
    const b0 = new Decimal(await spotAvailable(c, 'USDT', b));
    const body = {
      currency: 'USDT',
      sub_account_from: a.uid,
      sub_account_from_type: 'spot',
      sub_account_to: b.uid,
      sub_account_to_type: 'spot',
      amount: '3',
    };
    expect((await c.post('/wallet/sub_account_to_sub_account', body)).status).toBe(200);
    const bySub = await c.post('/wallet/sub_account_to_sub_account', body, a);
    expect(bySub.status).toBe(200);
    expect((await c.get('/wallet/order_status', { tx_id: bySub.json.tx_id }, a)).json.status).toBe('SUCCESS');
    expect(await spotAvailable(c, 'USDT', a)).toBe(a0.minus(6).toFixed());
    expect(await spotAvailable(c, 'USDT', b)).toBe(b0.plus(6).toFixed());
    expect(failure(await c.post('/wallet/sub_account_to_sub_account', body, b))).toEqual({ status: 401, label: 'FORBIDDEN' });
    expect(failure(await c.post('/wallet/sub_account_to_sub_account', { ...body, sub_account_to: '123' }))).toEqual({
      status: 404,
      label: 'SUB_ACCOUNT_NOT_FOUND',
    });
    expect(failure(await c.post('/wallet/sub_account_to_sub_account', { ...body, sub_account_to: LOCKED_SUB }))).toEqual({
      status: 400,
      label: 'SUB_ACCOUNT_LOCKED',
    });
    expect(failure(await c.post('/wallet/sub_account_to_sub_account', { ...body, sub_account_to: a.uid }))).toEqual({
      status: 400,
      label: 'INVALID_PARAM_VALUE',
    });
    expect(failure(await c.post('/wallet/sub_account_to_sub_account', { ...body, sub_account_to_type: 'options' }))).toEqual({
      status: 400,
      label: 'INVALID_PARAM_VALUE',
    });
    expect(failure(await c.post('/wallet/sub_account_to_sub_account', { ...body, amount: '1000000000' }))).toEqual({
      status: 400,
      label: 'BALANCE_NOT_ENOUGH',
    });
  });
});
