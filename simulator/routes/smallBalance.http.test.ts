import Decimal from 'decimal.js';
import { describe, expect, test } from 'vitest';
import { failure, spotAvailable, useClient } from '../testkit/client.ts';

// Contract tests of the three small-balance endpoints (§4.1, §2.9, §8.1) and getLowCapExchangeList: what
// counts as small, is_all, the empty answer, bad input, and the ledger agreeing with the history.

const c = useClient();

interface Item {
  currency: string;
  available_balance: string;
  estimated_as_btc: string;
  convertible_to_gt: string;
}
interface Hist {
  id: string;
  currency: string;
  amount: string;
  gt_amount: string;
  create_time: number;
}

describe('small balances', () => {
  test('a sub-account key lists and converts its own dust; the answer is an empty body; history and balances agree', async () => {
    const sub = c.subs[0]!;
    expect((await c.admin('POST', '/deposits', { uid: sub.uid, currency: 'DOGE', amount: '2' })).status).toBe(200);
    expect((await c.admin('POST', '/deposits', { uid: sub.uid, currency: 'PEPEX', amount: '1000' })).status).toBe(200);
    const list = (await c.get('/wallet/small_balance', {}, sub)).json as Item[];
    const doge = list.find((x) => x.currency === 'DOGE')!;
    expect(doge.available_balance).toBe(await spotAvailable(c, 'DOGE', sub));
    expect(list.map((x) => x.currency)).toContain('PEPEX');
    expect(list.map((x) => x.currency)).not.toContain('GT');
    // Nothing worth 5 USDT or more is small (USDT itself is held by the hundred).
    expect(list.map((x) => x.currency)).not.toContain('USDT');
    const gt0 = new Decimal(await spotAvailable(c, 'GT', sub));
    const r = await c.post('/wallet/small_balance', { currency: ['DOGE'] }, sub);
    expect(r.status).toBe(200);
    expect(r.text).toBe('');
    expect(await spotAvailable(c, 'DOGE', sub)).toBe('0');
    expect(await spotAvailable(c, 'GT', sub)).toBe(gt0.plus(doge.convertible_to_gt).toFixed());
    const hist = (await c.get('/wallet/small_balance_history', {}, sub)).json as Hist[];
    expect(hist).toHaveLength(1);
    expect(hist[0]).toMatchObject({ currency: 'DOGE', amount: doge.available_balance, gt_amount: doge.convertible_to_gt });
    expect(typeof hist[0]!.id).toBe('string');
    // The ledger holds the conversion under its history id: the dust to the house account, its GT back.
    const entries = c.s.db
      .prepare("SELECT uid, currency, delta FROM ledger_entries WHERE kind = 'small_balance' AND ref = ? ORDER BY id")
      .all(`small${hist[0]!.id}`);
    expect(entries).toEqual([
      { uid: sub.uid, currency: 'DOGE', delta: `-${doge.available_balance}` },
      { uid: '1', currency: 'DOGE', delta: doge.available_balance },
      { uid: '1', currency: 'GT', delta: `-${doge.convertible_to_gt}` },
      { uid: sub.uid, currency: 'GT', delta: doge.convertible_to_gt },
    ]);
    // The main account's history is its own.
    expect(((await c.get('/wallet/small_balance_history', { currency: 'DOGE' })).json as Hist[]).some((h) => h.id === hist[0]!.id)).toBe(
      false,
    );
    // Converting it again: no longer a small balance, nothing moves.
    expect(failure(await c.post('/wallet/small_balance', { currency: ['DOGE'] }, sub))).toEqual({
      status: 400,
      label: 'INVALID_PARAM_VALUE',
    });
  });

  test('is_all converts every small balance, whatever currency lists; one bad currency converts nothing', async () => {
    const sub = c.subs[1]!;
    for (const currency of ['DOGE', 'PEPEX']) await c.admin('POST', '/deposits', { uid: sub.uid, currency, amount: '3' });
    const before = ((await c.get('/wallet/small_balance', {}, sub)).json as Item[]).map((x) => x.currency).sort();
    expect(before.length).toBeGreaterThanOrEqual(2);
    expect(failure(await c.post('/wallet/small_balance', { currency: ['DOGE', 'USDT'] }, sub))).toEqual({
      status: 400,
      label: 'INVALID_PARAM_VALUE',
    });
    expect(((await c.get('/wallet/small_balance', {}, sub)).json as Item[]).map((x) => x.currency).sort()).toEqual(before);
    expect((await c.post('/wallet/small_balance', { currency: ['DOGE'], is_all: true }, sub)).status).toBe(200);
    expect((await c.get('/wallet/small_balance', {}, sub)).json).toEqual([]);
    const hist = (await c.get('/wallet/small_balance_history', { limit: 100 }, sub)).json as Hist[];
    expect(hist.map((h) => h.currency).sort()).toEqual(before);
  });

  test('bad input is named', async () => {
    expect(failure(await c.post('/wallet/small_balance', {}))).toEqual({ status: 400, label: 'MISSING_REQUIRED_PARAM' });
    expect(failure(await c.post('/wallet/small_balance', { currency: [] }))).toEqual({ status: 400, label: 'MISSING_REQUIRED_PARAM' });
    expect(failure(await c.post('/wallet/small_balance', { is_all: false }))).toEqual({ status: 400, label: 'MISSING_REQUIRED_PARAM' });
    expect(failure(await c.post('/wallet/small_balance', { is_all: 'yes' }))).toEqual({ status: 400, label: 'INVALID_PARAM_VALUE' });
    expect(failure(await c.post('/wallet/small_balance', { currency: 'DOGE' }))).toEqual({ status: 400, label: 'INVALID_PARAM_VALUE' });
    expect(failure(await c.post('/wallet/small_balance', { currency: [''] }))).toEqual({ status: 400, label: 'INVALID_PARAM_VALUE' });
    for (const limit of [0, 101, 'x'])
      expect(failure(await c.get('/wallet/small_balance_history', { limit }))).toEqual({ status: 400, label: 'INVALID_PARAM_VALUE' });
    expect(failure(await c.get('/wallet/small_balance_history', { page: 0 }))).toEqual({ status: 400, label: 'INVALID_PARAM_VALUE' });
    // A read-only key reads its list but converts nothing.
    expect((await c.get('/wallet/small_balance', {}, c.readOnly)).status).toBe(200);
    expect(failure(await c.post('/wallet/small_balance', { currency: ['DOGE'] }, c.readOnly))).toEqual({ status: 401, label: 'READ_ONLY' });
  });

  test('history pages per §8.1: newest first, page and limit', async () => {
    const sub = c.subs[2] ?? c.subs[0]!;
    for (const currency of ['DOGE', 'PEPEX', 'MOONC']) {
      await c.admin('POST', '/deposits', { uid: sub.uid, currency, amount: '1' });
      await c.post('/wallet/small_balance', { currency: [currency] }, sub);
      c.s.clock.advance(1);
    }
    const all = (await c.get('/wallet/small_balance_history', {}, sub)).json as Hist[];
    const p1 = (await c.get('/wallet/small_balance_history', { page: 1, limit: 2 }, sub)).json as Hist[];
    const p2 = (await c.get('/wallet/small_balance_history', { page: 2, limit: 2 }, sub)).json as Hist[];
    expect([...p1, ...p2].map((h) => h.id)).toEqual(all.slice(0, p1.length + p2.length).map((h) => h.id));
    expect(p1).toHaveLength(2);
    expect(all[0]!.create_time).toBeGreaterThanOrEqual(all.at(-1)!.create_time);
  });

  test('getLowCapExchangeList names the low-liquidity currencies', async () => {
    expect((await c.get('/wallet/getLowCapExchangeList')).json).toEqual(['PEPEX', 'MOONC']);
  });
});
