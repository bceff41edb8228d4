import Decimal from 'decimal.js';
import { describe, expect, test } from 'vitest';
import { failure, spotAvailable, useClient } from '../testkit/client.ts';

// Contract tests of §4.2 over HTTP against a real Sandbox (demo world, limits off, life cycle frozen
// so each test moves withdrawals itself through the admin API or one explicit tick).

const c = useClient();

const TRX_ADDR = 'TXkz7nF8cq3PWy7FHLgLFGfBpzyBK5ZNvA';

async function withdraw(body: Record<string, unknown>) {
  return c.post('/withdrawals', { currency: 'USDT', chain: 'TRX', address: TRX_ADDR, amount: '25', ...body });
}

async function record(id: string) {
  const r = await c.get('/wallet/withdrawals', { withdraw_id: id });
  expect(r.status).toBe(200);
  return (r.json as Record<string, string>[])[0]!;
}

describe('POST /withdrawals', () => {
  test('accepts, debits the whole amount from spot, and lists the record with a w id and the fee', async () => {
    const before = new Decimal(await spotAvailable(c, 'USDT'));
    const r = await withdraw({ amount: '25.5', withdraw_order_id: 'desk-A.1_x' });
    expect(r.status).toBe(200);
    expect(r.json).toMatchObject({
      currency: 'USDT',
      amount: '25.5',
      chain: 'TRX',
      withdraw_order_id: 'desk-A.1_x',
      status: 'PEND',
      address: TRX_ADDR,
    });
    expect(r.json.withdraw_id).toBe(`w${r.json.id}`);
    expect(new Decimal(await spotAvailable(c, 'USDT')).toFixed()).toBe(before.minus('25.5').toFixed());
    const rec = await record(r.json.withdraw_id);
    expect(rec).toMatchObject({
      id: r.json.withdraw_id,
      status: 'REQUEST',
      fee: '1',
      amount: '25.5',
      fail_reason: '',
      timestamp2: '',
      txid: '',
      type: 'withdraw',
    });
    const byOrderId = await c.get('/wallet/withdrawals', { withdraw_order_id: 'desk-A.1_x' });
    expect((byOrderId.json as { id: string }[]).map((x) => x.id)).toEqual([r.json.withdraw_id]);
  });

  test('moves REQUEST -> EXTPEND (txid) -> DONE (timestamp2, block) on the life cycle', async () => {
    const r = await withdraw({});
    const id = r.json.withdraw_id as string;
    c.step();
    const sent = await record(id);
    expect(sent.status).toBe('EXTPEND');
    expect(sent.txid).toMatch(/^[0-9a-f]{64}$/);
    c.step();
    const done = await record(id);
    if (done.status === 'FAIL') return; // one id in twenty fails on chain by design; covered below
    expect(done).toMatchObject({ status: 'DONE', fail_reason: '' });
    expect(Number(done.timestamp2)).toBeGreaterThan(0);
    expect(done.block_number).toMatch(/^\d+$/);
  });

  test('large amounts go through REVIEW or MANUAL; create-only statuses never appear in lists', async () => {
    const review = await withdraw({ amount: '30000' });
    expect(review.json.status).toBe('VERIFY');
    const manual = await withdraw({ amount: '100000' });
    expect(manual.json.status).toBe('DMOVE');
    c.step();
    expect((await record(review.json.withdraw_id)).status).toBe('REVIEW');
    expect((await record(manual.json.withdraw_id)).status).toBe('MANUAL');
    const all = await c.get('/wallet/withdrawals', { limit: 1000 });
    const statuses = new Set((all.json as { status: string }[]).map((x) => x.status));
    for (const s of ['INVALID', 'VERIFY', 'PROCES', 'PEND', 'DMOVE']) expect(statuses.has(s)).toBe(false);
  });

  test('DELETE answers 202 CANCELPEND, then CANCEL returns the funds with fail_reason and timestamp2', async () => {
    const before = new Decimal(await spotAvailable(c, 'USDT'));
    const r = await withdraw({ amount: '40' });
    const del = await c.del(`/withdrawals/${r.json.withdraw_id}`);
    expect(del.status).toBe(202);
    expect(del.json).toMatchObject({ id: r.json.withdraw_id, status: 'CANCELPEND', amount: '40' });
    expect(new Decimal(await spotAvailable(c, 'USDT')).toFixed()).toBe(before.minus(40).toFixed());
    c.step();
    const rec = await record(r.json.withdraw_id);
    expect(rec.status).toBe('CANCEL');
    expect(rec.fail_reason).not.toBe('');
    expect(Number(rec.timestamp2)).toBeGreaterThan(0);
    expect(new Decimal(await spotAvailable(c, 'USDT')).toFixed()).toBe(before.toFixed());
    // The create-response id (no "w") is accepted too; a finished withdrawal cannot be cancelled.
    expect(failure(await c.del(`/withdrawals/${r.json.id}`))).toEqual({ status: 400, label: 'INVALID_WITHDRAW_CANCEL_STATUS' });
  });

  test('cancel works in REVIEW and MANUAL, not in EXTPEND; unknown ids are INVALID_WITHDRAW_ID', async () => {
    const review = await withdraw({ amount: '30000' });
    const manual = await withdraw({ amount: '100000' });
    const small = await withdraw({});
    c.step();
    expect((await c.del(`/withdrawals/${review.json.withdraw_id}`)).status).toBe(202);
    expect((await c.del(`/withdrawals/${manual.json.withdraw_id}`)).status).toBe(202);
    expect(failure(await c.del(`/withdrawals/${small.json.withdraw_id}`))).toEqual({
      status: 400,
      label: 'INVALID_WITHDRAW_CANCEL_STATUS',
    });
    expect(failure(await c.del('/withdrawals/w999999999'))).toEqual({ status: 400, label: 'INVALID_WITHDRAW_ID' });
    expect(failure(await c.del('/withdrawals/abc'))).toEqual({ status: 400, label: 'INVALID_WITHDRAW_ID' });
  });

  test('admin moves: EXTPEND -> FAIL -> REJECT returns the funds; DONE is final', async () => {
    const before = new Decimal(await spotAvailable(c, 'USDT'));
    const r = await withdraw({ amount: '50' });
    const id = r.json.withdraw_id as string;
    for (const status of ['EXTPEND', 'FAIL'])
      expect((await c.admin('POST', `/withdrawals/${id}/status`, { status })).json.status).toBe(status);
    expect(new Decimal(await spotAvailable(c, 'USDT')).toFixed()).toBe(before.minus(50).toFixed());
    expect((await c.admin('POST', `/withdrawals/${id}/status`, { status: 'REJECT' })).json).toMatchObject({
      status: 'REJECT',
      fail_reason: '',
      timestamp2: '',
    });
    expect(new Decimal(await spotAvailable(c, 'USDT')).toFixed()).toBe(before.toFixed());
    expect(failure(await c.admin('POST', `/withdrawals/${id}/status`, { status: 'DONE' })).label).toBe('INVALID_WITHDRAW_CANCEL_STATUS');
  });

  test('a withdrawal to a Sandbox deposit address is internal, free, and credits the receiver at DONE', async () => {
    const sub = c.subs[0]!;
    const addr = await c.get('/wallet/deposit_address', { currency: 'USDT' }, sub);
    const trx = (addr.json.multichain_addresses as { chain: string; address: string }[]).find((m) => m.chain === 'TRX')!;
    const subBefore = new Decimal(await spotAvailable(c, 'USDT', sub));
    const r = await withdraw({ address: trx.address, amount: '15' });
    expect(r.json.status).toBe('PROCES');
    c.step();
    const rec = await record(r.json.withdraw_id);
    expect(rec).toMatchObject({ status: 'DONE', fee: '0', type: 'internal', block_number: '' });
    expect(rec.txid).toContain('Internal');
    expect(new Decimal(await spotAvailable(c, 'USDT', sub)).toFixed()).toBe(subBefore.plus(15).toFixed());
    const deposits = await c.get('/wallet/deposits', { currency: 'USDT' }, sub);
    expect((deposits.json as { amount: string; txid: string }[]).some((d) => d.amount === '15' && d.txid === rec.txid)).toBe(true);
  });

  test('a reused withdraw_order_id is accepted by default', async () => {
    expect((await withdraw({ withdraw_order_id: 'same-id' })).status).toBe(200);
    expect((await withdraw({ withdraw_order_id: 'same-id' })).status).toBe(200);
    const r = await c.get('/wallet/withdrawals', { withdraw_order_id: 'same-id' });
    expect((r.json as unknown[]).length).toBe(2);
  });

  test('refusals carry their §7 labels', async () => {
    const cases: [Record<string, unknown>, string][] = [
      [{ amount: undefined }, 'MISSING_REQUIRED_PARAM'],
      [{ chain: undefined }, 'MISSING_REQUIRED_PARAM'],
      [{ address: undefined }, 'MISSING_REQUIRED_PARAM'],
      [{ amount: '0' }, 'INVALID_PARAM_VALUE'],
      [{ amount: '-5' }, 'INVALID_PARAM_VALUE'],
      [{ amount: '1.123456789' }, 'INVALID_PARAM_VALUE'],
      [{ amount: 25 }, 'INVALID_PARAM_VALUE'],
      [{ amount: '25.1234567' }, 'INVALID_PRECISION'],
      [{ withdraw_order_id: 'x'.repeat(33) }, 'INVALID_PARAM_VALUE'],
      [{ withdraw_order_id: 'bad id!' }, 'INVALID_PARAM_VALUE'],
      [{ chain: 'SOL' }, 'INVALID_PARAM_VALUE'],
      [{ currency: 'NOPE' }, 'INVALID_CURRENCY'],
      [{ currency: 'PEPEX', chain: 'ETH', address: '0x1111111111111111111111111111111111111111', amount: '2000000' }, 'INVALID_CURRENCY'],
      [{ currency: 'BTC', chain: 'BSC', address: '0x1111111111111111111111111111111111111111', amount: '0.01' }, 'API_WITHDRAW_DISABLED'],
      [{ chain: 'TON', address: 'UQAbcdefghijklmnopqrstuvwxyz0123456789ABCDEFGHIJ' }, 'MISSING_REQUIRED_PARAM'],
      [{ amount: '5' }, 'AMOUNT_TOO_LITTLE'],
      [{ amount: '1000001' }, 'WITHDRAWAL_OVER_LIMIT'],
      [{ currency: 'ETH', chain: 'ETH', address: '0x1111111111111111111111111111111111111111', amount: '999' }, 'BALANCE_NOT_ENOUGH'],
      [{ address: 'no spaces allowed' }, 'INVALID_PARAM_VALUE'],
    ];
    for (const [patch, label] of cases) {
      const body = Object.fromEntries(
        Object.entries({ currency: 'USDT', chain: 'TRX', address: TRX_ADDR, amount: '25', ...patch }).filter(([, v]) => v !== undefined),
      );
      const r = await c.post('/withdrawals', body);
      expect({ patch, ...failure(r) }).toEqual({ patch, status: 400, label });
    }
    expect(failure(await c.post('/withdrawals', undefined))).toEqual({ status: 400, label: 'MISSING_REQUIRED_PARAM' });
    expect(failure(await c.post('/withdrawals', [1, 2]))).toEqual({ status: 400, label: 'INVALID_REQUEST_BODY' });
  });

  test('the daily limit counts what was withdrawn today and not returned', async () => {
    const before = await c.get('/wallet/withdraw_status', { currency: 'GT' });
    const remain = new Decimal(before.json[0].withdraw_day_limit_remain);
    const r = await c.post('/withdrawals', {
      currency: 'GT',
      chain: 'GTEVM',
      address: '0x2222222222222222222222222222222222222222',
      amount: '100',
    });
    expect(r.status).toBe(200);
    const after = await c.get('/wallet/withdraw_status', { currency: 'GT' });
    expect(after.json[0].withdraw_day_limit_remain).toBe(remain.minus(100).toFixed());
    const over = await c.post('/withdrawals', {
      currency: 'GT',
      chain: 'GTEVM',
      address: '0x2222222222222222222222222222222222222222',
      amount: remain.minus(99).toFixed(),
    });
    expect(failure(over)).toEqual({ status: 400, label: 'WITHDRAWAL_OVER_LIMIT' });
  });

  test('sub-account keys cannot withdraw (§5.5)', async () => {
    expect(failure(await c.post('/withdrawals', { currency: 'USDT', chain: 'TRX', address: TRX_ADDR, amount: '25' }, c.subs[0]))).toEqual({
      status: 401,
      label: 'FORBIDDEN',
    });
  });
});

describe('refuse-duplicate-withdrawals', () => {
  const d = useClient({ refuseDuplicateWithdrawals: true });

  test('with the option on, a reused withdraw_order_id is ORDER_EXISTS', async () => {
    const body = { currency: 'USDT', chain: 'TRX', address: TRX_ADDR, amount: '25', withdraw_order_id: 'once' };
    expect((await d.post('/withdrawals', body)).status).toBe(200);
    expect(failure(await d.post('/withdrawals', body))).toEqual({ status: 400, label: 'ORDER_EXISTS' });
  });
});

describe('life cycle timer', () => {
  const d = useClient({ speed: 100 });

  test('with speed on, the timer takes a withdrawal through EXTPEND to a final status', async () => {
    const r = await d.post('/withdrawals', { currency: 'USDT', chain: 'TRX', address: TRX_ADDR, amount: '25' });
    expect(r.status, r.text).toBe(200);
    const id = r.json.withdraw_id as string;
    const seen: string[] = [];
    for (let i = 0; i < 100; i++) {
      await new Promise((res) => setTimeout(res, 50));
      const st = ((await d.get('/wallet/withdrawals', { withdraw_id: id })).json as { status: string }[])[0]!.status;
      if (seen.at(-1) !== st) seen.push(st);
      if (['DONE', 'REJECT'].includes(st)) break;
    }
    expect(['DONE', 'REJECT']).toContain(seen.at(-1));
    expect(seen).toContain('EXTPEND');
  });
});

describe('POST /withdrawals/push', () => {
  test('moves main spot to another main account at once and both sides list it', async () => {
    const other = (await c.admin('POST', '/accounts', { world: 'demo' })).json as { main: { uid: string; key: string; secret: string } };
    const before = new Decimal(await spotAvailable(c, 'USDT', other.main));
    const r = await c.post('/withdrawals/push', { receive_uid: Number(other.main.uid), currency: 'USDT', amount: '12.5' });
    expect(r.status).toBe(200);
    expect(typeof r.json.id).toBe('number');
    expect(new Decimal(await spotAvailable(c, 'USDT', other.main)).toFixed()).toBe(before.plus('12.5').toFixed());
    const sent = await c.get('/wallet/push', { id: r.json.id });
    expect(sent.json[0]).toMatchObject({
      id: r.json.id,
      push_uid: Number(c.main.uid),
      receive_uid: Number(other.main.uid),
      status: 'RECEIVED',
      transaction_type: 'withdraw',
    });
    const got = await c.get('/wallet/push', { transaction_type: 'deposit' }, other.main);
    expect((got.json as { id: number }[]).some((x) => x.id === r.json.id)).toBe(true);
    expect(failure(await c.post('/withdrawals/push', { receive_uid: Number(c.subs[0]!.uid), currency: 'USDT', amount: '1' }))).toEqual({
      status: 400,
      label: 'RECEIVE_ERROR',
    });
    expect(failure(await c.post('/withdrawals/push', { receive_uid: 'x1', currency: 'USDT', amount: '1' }))).toEqual({
      status: 400,
      label: 'INVALID_PARAM_VALUE',
    });
    expect(failure(await c.post('/withdrawals/push', { currency: 'USDT', amount: '1' }))).toEqual({
      status: 400,
      label: 'MISSING_REQUIRED_PARAM',
    });
    expect(
      failure(await c.post('/withdrawals/push', { receive_uid: Number(other.main.uid), currency: 'USDT', amount: '1' }, c.subs[0])),
    ).toEqual({ status: 401, label: 'FORBIDDEN' });
  });
});
