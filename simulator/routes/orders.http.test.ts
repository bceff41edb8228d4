import Database from 'better-sqlite3';
import Decimal from 'decimal.js';
import { dirname, join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { SpotOrder, SpotTrade, OrderBook, OpenOrdersOfPair, CancelOrderResult } from '../../shared/api/orders.ts';
import { sign, signed, type Reply } from '../testkit/http.ts';
import { failure, useClient, type Key } from '../testkit/client.ts';

// The spot market through the real Sandbox over HTTP, as a client sees it: the demo world's market maker
// quotes every pair, orders lock and move money in GET /spot/accounts, and refusals carry §7 labels and
// change nothing.

const c = useClient();

const PAIR = 'BTC_USDT';

function del(path: string, query: Record<string, string>, key: Key = c.main): Promise<Reply> {
  return signed(c.s.baseUrl, key, {
    method: 'DELETE',
    path,
    query: new URLSearchParams(query).toString(),
    timestamp: String(Math.floor(c.s.clock.now())),
  });
}

async function book(pair = PAIR) {
  const r = await c.publicGet('/spot/order_book', { currency_pair: pair, limit: 100 });
  expect(r.status).toBe(200);
  return OrderBook.parse(r.json);
}

async function balance(currency: string, key: Key = c.main): Promise<{ available: Decimal; locked: Decimal }> {
  const r = await c.get('/spot/accounts', { currency }, key);
  const row = (r.json as { available: string; locked: string }[])[0] ?? { available: '0', locked: '0' };
  return { available: new Decimal(row.available), locked: new Decimal(row.locked) };
}

async function place(body: Record<string, unknown>, key: Key = c.main): Promise<Reply> {
  return c.post('/spot/orders', { currency_pair: PAIR, ...body }, key);
}

describe('order book and tickers', () => {
  test('the demo market maker quotes every level: asks up, bids down, never crossed; limit at most 100', async () => {
    const b = await book();
    expect(b.asks.length).toBeGreaterThanOrEqual(20);
    expect(b.bids.length).toBeGreaterThanOrEqual(20);
    const asks = b.asks.map(([p]) => new Decimal(p)),
      bids = b.bids.map(([p]) => new Decimal(p));
    for (let i = 1; i < asks.length; i++) expect(asks[i]!.gt(asks[i - 1]!)).toBe(true);
    for (let i = 1; i < bids.length; i++) expect(bids[i]!.lt(bids[i - 1]!)).toBe(true);
    expect(bids[0]!.lt(asks[0]!)).toBe(true);
    expect(failure(await c.publicGet('/spot/order_book', { currency_pair: PAIR, limit: 101 }))).toEqual({
      status: 400,
      label: 'INVALID_PARAM_VALUE',
    });
    expect(failure(await c.publicGet('/spot/order_book', { currency_pair: 'NOPE_USDT' }))).toEqual({
      status: 400,
      label: 'INVALID_CURRENCY_PAIR',
    });
    expect(failure(await c.publicGet('/spot/order_book'))).toEqual({ status: 400, label: 'MISSING_REQUIRED_PARAM' });
    const t = (await c.publicGet('/spot/tickers', { currency_pair: PAIR })).json[0];
    expect([t.highest_bid, t.lowest_ask]).toEqual([b.bids[0]![0], b.asks[0]![0]]);
  });
});

describe('placing, reading and cancelling', () => {
  test('a resting limit buy locks price × amount, is found by id and by text, and a cancel gives it back', async () => {
    const before = await balance('USDT');
    const b = await book();
    const price = new Decimal(b.bids[b.bids.length - 1]![0]).minus(100).toFixed();
    const r = await place({ side: 'buy', amount: '0.01', price, text: 't-rest-1' });
    expect(r.status, r.text).toBe(201);
    const o = SpotOrder.parse(r.json);
    expect(o).toMatchObject({
      status: 'open',
      finish_as: 'open',
      left: '0.01',
      filled_amount: '0',
      type: 'limit',
      account: 'spot',
      time_in_force: 'gtc',
      text: 't-rest-1',
      stp_id: 0,
      stp_act: '-',
    });
    const cost = new Decimal(price).times('0.01');
    const during = await balance('USDT');
    expect(during.available.toFixed()).toBe(before.available.minus(cost).toFixed());
    expect(during.locked.toFixed()).toBe(before.locked.plus(cost).toFixed());

    expect((await c.get(`/spot/orders/${o.id}`, { currency_pair: PAIR })).json.id).toBe(o.id);
    expect((await c.get('/spot/orders/t-rest-1', { currency_pair: PAIR })).json.id).toBe(o.id);
    expect(failure(await c.get(`/spot/orders/${o.id}`, { currency_pair: 'ETH_USDT' }))).toEqual({ status: 404, label: 'ORDER_NOT_FOUND' });
    expect(failure(await c.get(`/spot/orders/${o.id}`, { currency_pair: PAIR }, c.subs[0]))).toEqual({
      status: 404,
      label: 'ORDER_NOT_FOUND',
    });
    const open = await c.get('/spot/orders', { currency_pair: PAIR, status: 'open' });
    expect((open.json as SpotOrder[]).map((x) => x.id)).toContain(o.id);
    const grouped = (await c.get('/spot/open_orders')).json.map((x: unknown) => OpenOrdersOfPair.parse(x));
    expect(grouped.find((g: { currency_pair: string }) => g.currency_pair === PAIR).orders.map((x: SpotOrder) => x.id)).toContain(o.id);

    const cancelled = await del('/spot/orders/t-rest-1', { currency_pair: PAIR });
    expect(cancelled.status, cancelled.text).toBe(200);
    expect(SpotOrder.parse(cancelled.json)).toMatchObject({ id: o.id, status: 'cancelled', finish_as: 'cancelled' });
    const after = await balance('USDT');
    expect([after.available.toFixed(), after.locked.toFixed()]).toEqual([before.available.toFixed(), before.locked.toFixed()]);
    expect(failure(await del(`/spot/orders/${o.id}`, { currency_pair: PAIR }))).toEqual({ status: 400, label: 'ORDER_CANCELLED' });
    const finished = await c.get('/spot/orders', { currency_pair: PAIR, status: 'finished' });
    expect((finished.json as SpotOrder[]).find((x) => x.id === o.id)?.status).toBe('cancelled');
  });

  test("a crossing buy fills at the makers' prices, pays 0.2% in BTC, and moves the ticker and valuation", async () => {
    const usdt = await balance('USDT'),
      btc = await balance('BTC');
    const b = await book();
    const [p1, a1] = b.asks[0]!,
      [p2] = b.asks[1]!;
    // Takes the whole best level and a little of the next one.
    const amount = new Decimal(a1).plus('0.001').toFixed();
    const r = await place({ side: 'buy', amount, price: p2 });
    expect(r.status, r.text).toBe(201);
    const o = SpotOrder.parse(r.json);
    const total = new Decimal(p1).times(a1).plus(new Decimal(p2).times('0.001'));
    expect(o).toMatchObject({
      status: 'closed',
      finish_as: 'filled',
      left: '0',
      filled_amount: amount,
      filled_total: total.toFixed(),
      fee_currency: 'BTC',
    });
    expect(o.fee).toBe(new Decimal(amount).times('0.002').toFixed());
    const usdtAfter = await balance('USDT'),
      btcAfter = await balance('BTC');
    expect(usdtAfter.available.toFixed()).toBe(usdt.available.minus(total).toFixed());
    expect(usdtAfter.locked.toFixed()).toBe(usdt.locked.toFixed());
    expect(btcAfter.available.toFixed()).toBe(btc.available.plus(amount).minus(o.fee).toFixed());
    const trades = (await c.get('/spot/my_trades', { currency_pair: PAIR, order_id: o.id })).json.map((x: unknown) => SpotTrade.parse(x));
    expect([...new Set(trades.map((t: SpotTrade) => `${t.price} ${t.role} ${t.side}`))].sort()).toEqual(
      [`${p1} taker buy`, `${p2} taker buy`].sort(),
    );
    expect(trades.reduce((s: Decimal, t: SpotTrade) => s.plus(t.amount), new Decimal(0)).toFixed()).toBe(amount);
    expect((await c.publicGet('/spot/tickers', { currency_pair: PAIR })).json[0].last).toBe(p2);
    // The valuation follows the last price once the one-minute total_balance cache has passed.
    await c.admin('POST', '/clock/advance', { seconds: 61 });
    const tb = await c.get('/wallet/total_balance', { currency: 'BTC' });
    const spotBtc = new Decimal(tb.json.details.spot.amount);
    expect(spotBtc.gt(0)).toBe(true);
  });

  test('market orders: a buy spends quote funds, a sell sells base; both take the book', async () => {
    const buy = SpotOrder.parse((await place({ side: 'buy', type: 'market', amount: '100', time_in_force: 'ioc' })).json);
    expect([buy.status, buy.finish_as, buy.type, buy.price]).toEqual(['closed', 'filled', 'market', '0']);
    expect(new Decimal(buy.filled_total).lte(100)).toBe(true);
    expect(new Decimal(buy.filled_total).plus(buy.left).toFixed()).toBe('100');
    const sell = SpotOrder.parse((await place({ side: 'sell', type: 'market', amount: '0.002' })).json);
    expect([sell.status, sell.finish_as, sell.filled_amount, sell.fee_currency]).toEqual(['closed', 'filled', '0.002', 'USDT']);
    expect(failure(await place({ side: 'buy', type: 'market', amount: '100', time_in_force: 'gtc' }))).toEqual({
      status: 400,
      label: 'INVALID_PARAM_VALUE',
    });
  });

  test('ioc, poc and fok as a client sees them', async () => {
    const b = await book();
    const bestAsk = b.asks[0]![0];
    const ioc = SpotOrder.parse((await place({ side: 'buy', amount: '1', price: bestAsk, time_in_force: 'ioc' }, c.main)).json);
    expect([ioc.status, ioc.finish_as]).toEqual(['cancelled', 'ioc']);
    expect(new Decimal(ioc.left).gt(0)).toBe(true);
    const usdt = await balance('USDT');
    expect(usdt.locked.toFixed()).toBe((await balance('USDT')).locked.toFixed());
    const b2 = await book();
    expect(failure(await place({ side: 'buy', amount: '0.001', price: b2.asks[0]![0], time_in_force: 'poc' }))).toEqual({
      status: 400,
      label: 'POC_FILL_IMMEDIATELY',
    });
    expect(failure(await place({ side: 'buy', amount: '1', price: b2.asks[0]![0], time_in_force: 'fok' }))).toEqual({
      status: 400,
      label: 'FOK_NOT_FILL',
    });
    expect(await book()).toEqual({ ...b2, current: expect.any(Number) });
    expect((await balance('USDT')).available.toFixed()).toBe(usdt.available.toFixed());
  });

  test('cancel all of a pair, and a batch of cancellations with a result per item', async () => {
    const b = await book();
    const low = new Decimal(b.bids[b.bids.length - 1]![0]).minus(500);
    const ids: string[] = [];
    for (let i = 0; i < 3; i++)
      ids.push(SpotOrder.parse((await place({ side: 'buy', amount: '0.001', price: low.minus(i).toFixed() })).json).id);
    const batch = await c.post('/spot/cancel_batch_orders', [
      { currency_pair: PAIR, id: ids[0] },
      { currency_pair: PAIR, id: '999999999' },
    ]);
    expect(batch.status, batch.text).toBe(200);
    const results = (batch.json as unknown[]).map((x) => CancelOrderResult.parse(x));
    expect(results.map((x) => [x.succeeded, x.label])).toEqual([
      [true, ''],
      [false, 'ORDER_NOT_FOUND'],
    ]);
    const all = await del('/spot/orders', { currency_pair: PAIR });
    expect((all.json as SpotOrder[]).map((x) => x.id).sort()).toEqual(ids.slice(1).sort());
    expect((await c.get('/spot/orders', { currency_pair: PAIR, status: 'open' })).json).toEqual([]);
  });
});

describe('refusals change nothing', () => {
  test('each problem has its §7 label', async () => {
    const before = await balance('USDT');
    const b = await book();
    const bid = b.bids[5]![0];
    const cases: [Record<string, unknown>, number, string][] = [
      [{ side: 'buy', amount: '100000', price: bid }, 400, 'AMOUNT_TOO_MUCH'],
      [{ side: 'buy', amount: '0.0000001', price: bid }, 400, 'INVALID_PRECISION'],
      [{ side: 'buy', amount: '0.001', price: '60000.05' }, 400, 'INVALID_PRECISION'],
      [{ side: 'buy', amount: '0.00001', price: '1000' }, 400, 'AMOUNT_TOO_LITTLE'],
      [{ side: 'buy', amount: '0.001', price: bid, currency_pair: 'NOPE_USDT' }, 400, 'INVALID_CURRENCY_PAIR'],
      [{ side: 'buy', amount: '0.001' }, 400, 'MISSING_REQUIRED_PARAM'],
      [{ side: 'hold', amount: '0.001', price: bid }, 400, 'INVALID_PARAM_VALUE'],
      [{ side: 'buy', amount: 0.001, price: bid }, 400, 'INVALID_PARAM_VALUE'],
      [{ side: 'buy', amount: '-1', price: bid }, 400, 'INVALID_PARAM_VALUE'],
      [{ side: 'buy', amount: '0.001', price: bid, text: 'no-prefix' }, 400, 'INVALID_PARAM_VALUE'],
      [{ side: 'buy', amount: '0.001', price: bid, text: `t-${'x'.repeat(29)}` }, 400, 'INVALID_PARAM_VALUE'],
      [{ side: 'buy', amount: '0.001', price: bid, stp_act: 'cn' }, 400, 'INVALID_PARAM_VALUE'],
      [{ side: 'buy', amount: '0.001', price: bid, account: 'margin', auto_borrow: true }, 400, 'INVALID_PARAM_VALUE'],
      [{ side: 'buy', amount: '0.001', price: bid, account: 'cross_margin' }, 400, 'INVALID_PARAM_VALUE'],
    ];
    for (const [body, status, label] of cases)
      expect([JSON.stringify(body), failure(await place(body))]).toEqual([JSON.stringify(body), { status, label }]);
    expect(failure(await c.post('/spot/orders', undefined))).toEqual({ status: 400, label: 'MISSING_REQUIRED_PARAM' });
    // A sub-account holds a few thousand USDT: one BTC is out of its reach.
    const sub = c.subs[1]!;
    const subBefore = await balance('USDT', sub);
    expect(failure(await place({ side: 'buy', amount: '1', price: bid }, sub))).toEqual({ status: 400, label: 'BALANCE_NOT_ENOUGH' });
    expect(await balance('USDT', sub)).toEqual(subBefore);
    expect(failure(await c.get('/spot/orders', { currency_pair: PAIR }))).toEqual({ status: 400, label: 'MISSING_REQUIRED_PARAM' });
    expect(failure(await c.get('/spot/orders/12x', { currency_pair: PAIR }))).toEqual({ status: 400, label: 'INVALID_PARAM_VALUE' });
    expect(failure(await place({ side: 'buy', amount: '0.001', price: bid }, c.readOnly))).toEqual({ status: 401, label: 'READ_ONLY' });
    expect((await c.get('/spot/orders', { currency_pair: PAIR, status: 'open' }, c.readOnly)).status).toBe(200);
    const after = await balance('USDT');
    expect([after.available.toFixed(), after.locked.toFixed()]).toEqual([before.available.toFixed(), before.locked.toFixed()]);
  });
});

describe('self-trade prevention and margin', () => {
  test('accounts put in one group by the admin API: cb cancels both orders (stp)', async () => {
    const sub = c.subs[0]!;
    expect((await c.admin('PUT', `/accounts/${c.main.uid}/stp_group`, { stp_id: 9 })).status).toBe(200);
    expect((await c.admin('PUT', `/accounts/${sub.uid}/stp_group`, { stp_id: 9 })).status).toBe(200);
    const b = await book();
    // Inside the spread, so that only these two orders can meet.
    const price = new Decimal(b.bids[0]![0]).plus(b.asks[0]![0]).div(2).toDecimalPlaces(1).toFixed();
    const maker = SpotOrder.parse((await place({ side: 'sell', amount: '0.001', price }, sub)).json);
    expect([maker.status, maker.stp_id]).toEqual(['open', 9]);
    const taker = SpotOrder.parse((await place({ side: 'buy', amount: '0.001', price, stp_act: 'cb' })).json);
    expect([taker.status, taker.finish_as, taker.stp_act, taker.filled_amount]).toEqual(['cancelled', 'stp', 'cb', '0']);
    const m = SpotOrder.parse((await c.get(`/spot/orders/${maker.id}`, { currency_pair: PAIR }, sub)).json);
    expect([m.status, m.finish_as]).toEqual(['cancelled', 'stp']);
    await c.admin('PUT', `/accounts/${c.main.uid}/stp_group`, { stp_id: 0 });
    await c.admin('PUT', `/accounts/${sub.uid}/stp_group`, { stp_id: 0 });
  });

  test('margin orders lock and settle in the isolated margin account, not in spot', async () => {
    const spotBefore = await balance('USDT');
    const marginQuote = async () =>
      (await c.get('/margin/accounts', { currency_pair: PAIR })).json[0].quote as { available: string; locked: string };
    const mBefore = await marginQuote();
    const b = await book();
    const price = new Decimal(b.bids[b.bids.length - 1]![0]).minus(1000).toFixed();
    const o = SpotOrder.parse((await place({ side: 'buy', amount: '0.001', price, account: 'margin' })).json);
    expect(o.account).toBe('margin');
    const mDuring = await marginQuote();
    expect(new Decimal(mDuring.locked).minus(mBefore.locked).toFixed()).toBe(new Decimal(price).times('0.001').toFixed());
    expect((await balance('USDT')).available.toFixed()).toBe(spotBefore.available.toFixed());
    await del(`/spot/orders/${o.id}`, { currency_pair: PAIR });
    expect(await marginQuote()).toEqual(mBefore);
  });
});

describe('custom ids (§2.10)', () => {
  test('a text stands for the order id for 30 minutes after creation, then only the id finds it', async () => {
    const b = await book();
    const price = new Decimal(b.bids[b.bids.length - 1]![0]).minus(700).toFixed();
    const o = SpotOrder.parse((await place({ side: 'buy', amount: '0.001', price, text: 't-thirty' })).json);
    await c.admin('POST', '/clock/advance', { seconds: 29 * 60 });
    expect((await c.get('/spot/orders/t-thirty', { currency_pair: PAIR })).json.id).toBe(o.id);
    await c.admin('POST', '/clock/advance', { seconds: 61 });
    expect(failure(await c.get('/spot/orders/t-thirty', { currency_pair: PAIR }))).toEqual({ status: 404, label: 'ORDER_NOT_FOUND' });
    expect((await c.get(`/spot/orders/${o.id}`, { currency_pair: PAIR })).json.text).toBe('t-thirty');
    await del(`/spot/orders/${o.id}`, { currency_pair: PAIR });
  });
});

describe('group commit', () => {
  test('an order is answered only once its batch has committed: another connection to the store finds it', async () => {
    // app.inject resolves on the answer's last byte, before the event loop reaches the batch's commit,
    // so an answer written ahead of the commit is seen here while the order is still uncommitted.
    const b = await book();
    const price = new Decimal(b.bids[b.bids.length - 1]![0]).minus(900).toFixed();
    const body = JSON.stringify({ currency_pair: PAIR, side: 'buy', amount: '0.001', price });
    const path = `${new URL(c.s.baseUrl).pathname}/spot/orders`;
    const ts = String(Math.floor(c.s.clock.now()));
    const reader = new Database(join(dirname(c.s.credentialsPath), 'sandbox.sqlite'), { readonly: true });
    try {
      const answers = await Promise.all(
        [0, 1, 2].map(() =>
          c.s.app
            .inject({
              method: 'POST',
              url: path,
              payload: body,
              headers: {
                KEY: c.main.key,
                Timestamp: ts,
                SIGN: sign(c.main.secret, 'POST', path, '', body, ts),
                'Content-Type': 'application/json',
              },
            })
            .then((r) => {
              const stored = reader.prepare('SELECT status FROM spot_orders WHERE id = ?').get(Number(JSON.parse(r.body).id));
              return { status: r.statusCode, stored, inTransaction: c.s.db.inTransaction };
            }),
        ),
      );
      for (const a of answers) expect(a).toEqual({ status: 201, stored: { status: 'open' }, inTransaction: false });
    } finally {
      reader.close();
    }
    for (const o of (await c.get('/spot/open_orders')).json as { orders: { id: string }[] }[])
      for (const x of o.orders) await del(`/spot/orders/${x.id}`, { currency_pair: PAIR });
  });
});
