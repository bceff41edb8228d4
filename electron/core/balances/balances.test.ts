import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { conditionsOf } from './alerts.ts';
import { kindsOf, type SubAccountEntry } from './matrix.ts';
import { BalanceStore } from './store.ts';
import { Prices, valueOf } from './valuation.ts';
import { Dec } from '../../../shared/money.ts';

function entry(uid: string, cross: Record<string, unknown> | null, usdt = '100'): SubAccountEntry {
  const spot = { uid, available: { USDT: usdt } };
  return { uid, name: `sub_${uid}`, spot, margin: [], futures: {}, cross, kinds: kindsOf(spot, [], {}, cross) };
}

describe('balance alerts', () => {
  const dirs: string[] = [];
  afterEach(() => {
    for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
  });

  it("raises below the threshold (a sub-account's own before the default), never at or above it", () => {
    const rules = { defaultThreshold: '1.3', thresholds: new Map([['2', '2']]), floors: [] };
    const c = conditionsOf(
      [
        entry('1', { user_id: 1, risk: '1.2999', balances: {} }),
        entry('2', { user_id: 2, risk: '1.5', balances: {} }),
        entry('3', { user_id: 3, risk: '1.3', balances: {} }),
        entry('4', { user_id: 0, risk: '0', balances: {} }),
      ],
      rules,
    );
    expect(c.map((x) => [x.uid, x.kind, x.value, x.threshold])).toEqual([
      ['1', 'cross_risk', '1.2999', '1.3'],
      ['2', 'cross_risk', '1.5', '2'],
    ]);
  });

  it('compares a floor with the currency held across every account', () => {
    const e = entry(
      '7',
      { user_id: 7, risk: '999', balances: { USDT: { available: '50', freeze: '0', borrowed: '0', interest: '0' } } },
      '100',
    );
    const rules = (floor: string) => ({ defaultThreshold: '1.1', thresholds: new Map(), floors: [{ uid: '7', currency: 'USDT', floor }] });
    expect(conditionsOf([e], rules('150'))).toEqual([]);
    expect(conditionsOf([e], rules('150.01'))).toEqual([
      { uid: '7', kind: 'low_balance', subject: 'USDT', value: '150', threshold: '150.01' },
    ]);
  });

  it('survive a restart, are raised once while they stand, and leave only when cleared and acknowledged', () => {
    const dir = mkdtempSync(join(tmpdir(), 'balances-'));
    dirs.push(dir);
    const file = join(dir, 'p.sqlite');
    const cond = { uid: '9', kind: 'cross_risk' as const, subject: '', value: '1', threshold: '1.3' };
    let store = new BalanceStore(file);
    expect(store.reconcile([cond], 1000, () => true)).toHaveLength(1);
    store.close();

    store = new BalanceStore(file);
    const [a] = store.activeAlerts();
    expect(a).toMatchObject({ uid: '9', kind: 'cross_risk', value: '1', acknowledged_at: null, cleared_at: null });
    expect(store.reconcile([{ ...cond, value: '0.9' }], 2000, () => true)).toEqual([]);
    expect(store.activeAlerts()[0]!.value).toBe('0.9');
    store.acknowledge(a!.id, 3000);
    expect(store.activeAlerts()).toHaveLength(1);
    store.reconcile([], 4000, () => true);
    expect(store.activeAlerts()).toEqual([]);
    // Back below the line after clearing: a new alert.
    expect(store.reconcile([cond], 5000, () => true)).toHaveLength(1);
    store.close();
  });
});

describe('balance store statements', () => {
  it('prepares every statement when it opens, and none at each call after', () => {
    const prepare = vi.spyOn(Database.prototype, 'prepare');
    try {
      const store = new BalanceStore(null);
      prepare.mockClear();
      const cond = { uid: '9', kind: 'cross_risk' as const, subject: '', value: '1', threshold: '1.3' };
      for (const at of [1000, 2000]) {
        store.addSnapshot(at, 'USDT', '10');
        store.snapshots('USDT', 0, 10);
        store.saveSettings({ auto_refresh_seconds: 60, default_risk_threshold: '1.5' });
        store.settings();
        store.setThreshold('9', '2');
        store.setThreshold('8', null);
        store.thresholds();
        store.setFloor('9', 'USDT', '5');
        store.setFloor('9', 'BTC', null);
        store.floors();
        store.floors('9');
        const [raised] = store.reconcile([cond], at, () => true);
        store.reconcile([], at + 1, () => true);
        store.activeAlerts();
        store.activeAlerts('9');
        store.acknowledge(raised!.id, at + 2);
        store.alert(raised!.id);
      }
      expect(prepare.mock.calls.map(([sql]) => sql)).toEqual([]);
      // What the kept statements wrote reads back.
      expect(store.snapshots('USDT', 0, 10).map((s) => s.at)).toEqual([1000, 2000]);
      expect(store.settings().auto_refresh_seconds).toBe(60);
      expect(store.floors('9')).toEqual([{ uid: '9', currency: 'USDT', floor: '5' }]);
      expect(store.activeAlerts()).toEqual([]);
      store.close();
    } finally {
      prepare.mockRestore();
    }
  });
});

describe('valuation from spot tickers', () => {
  const prices = new Prices([
    { currency_pair: 'BTC_USDT', last: '60000' },
    { currency_pair: 'USDT_TRY', last: '40' },
    { currency_pair: 'ETH_BTC', last: '0.05' },
  ]);

  it('prices directly, through the inverse pair and through USDT, and names what it cannot price', () => {
    expect(prices.price('BTC', 'USDT')!.toFixed()).toBe('60000');
    expect(prices.price('TRY', 'USDT')!.toFixed()).toBe('0.025');
    expect(prices.price('TRY', 'BTC')!.times(60000).minus('0.025').abs().lt('1e-30')).toBe(true);
    expect(prices.price('ETH', 'BTC')!.toFixed()).toBe('0.05');
    expect(prices.price('PEPEX', 'USDT')).toBeNull();
    expect(valueOf({ BTC: new Dec('0.5'), PEPEX: new Dec('10'), USDT: new Dec('1.123456789') }, prices, 'USDT')).toEqual({
      value: '30001.12345678',
      unpriced: ['PEPEX'],
    });
  });
});
