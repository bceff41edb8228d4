import { describe, expect, it } from 'vitest';
import { MatrixQuery } from '../../../shared/balances.ts';
import { conditionsOf } from './alerts.ts';
import type { SubAccountsRaw } from './load.ts';
import { entriesOf, queryRows, rowOf } from './matrix.ts';
import { Prices } from './valuation.ts';

// The matrix as the window asks for it: search, "hide small", sort and pages run over every row, and
// the column totals cover every filtered row, not only the page.

const raw: SubAccountsRaw = {
  accounts: [
    { uid: '101', name: 'alpha' },
    { uid: '102', name: 'beta' },
    { uid: '103', name: 'gamma' },
    { uid: '99', name: 'delta' },
  ],
  spot: [
    { uid: '101', available: { USDT: '10' } },
    { uid: '102', available: { USDT: '0.5' } },
    { uid: '103', available: { BTC: '1' }, locking: { BTC: '0.5' } },
    { uid: '99', available: { USDT: '300' } },
  ],
  margin: [
    {
      uid: '101',
      available: [
        {
          currency_pair: 'BTC_USDT',
          account_type: 'mmr',
          mmr: '1.2',
          base: { currency: 'BTC', available: '0', locked: '0', borrowed: '0', interest: '0' },
          quote: { currency: 'USDT', available: '100', locked: '0', borrowed: '40', interest: '1' },
        },
        {
          currency_pair: 'ETH_USDT',
          account_type: 'inactive',
          mmr: '0.5',
          base: { currency: 'ETH', available: '0', locked: '0', borrowed: '0', interest: '0' },
          quote: { currency: 'USDT', available: '0', locked: '0', borrowed: '0', interest: '0' },
        },
      ],
    },
  ],
  futures: [{ uid: '102', available: { usdt: { total: '20', unrealised_pnl: '-5', currency: 'USDT' }, btc: {} } }],
  cross: [
    {
      uid: '103',
      available: { user_id: 103, risk: '2.5', balances: { USDT: { available: '7', freeze: '1', borrowed: '2', interest: '0.5' } } },
    },
    { uid: '101', available: { user_id: 0 } },
  ],
  tickers: [{ currency_pair: 'BTC_USDT', last: '100' }],
  requests: 8,
  unread: [],
};
const entries = entriesOf(raw);
const rows = entries.map((e) => rowOf(e, new Prices(raw.tickers), 'USDT', 0));
const q = (x: Record<string, unknown>) => queryRows(rows, MatrixQuery.parse(x));

describe('the sub-account matrix', () => {
  it('values each kind by its rules and totals the row', () => {
    const byUid = Object.fromEntries(rows.map((r) => [r.uid, r]));
    expect(byUid['101']!.cells.margin.value).toBe('59'); // 100 - 40 - 1
    expect(byUid['102']!.cells.futures_usdt.value).toBe('15');
    expect(byUid['103']!.cells.spot.value).toBe('150');
    expect(byUid['103']!.cells.cross_margin.value).toBe('5.5');
    expect(byUid['103']!.total).toBe('155.5');
    expect([byUid['101']!.cross_risk, byUid['103']!.cross_risk, byUid['101']!.margin_risk]).toEqual([null, '2.5', '1.2']);
  });

  it('searches, hides small totals, sorts with missing figures last, and totals every filtered row', () => {
    expect(q({}).rows.map((r) => r.uid)).toEqual(['99', '101', '102', '103']);
    expect(q({ search: 'ET' }).rows.map((r) => r.uid)).toEqual(['102']);
    expect(q({ hide_below: '1' }).rows.map((r) => r.uid)).toEqual(['99', '101', '102', '103']);
    expect(q({ hide_below: '16' }).rows.map((r) => r.uid)).toEqual(['99', '101', '103']);
    expect(q({ sort: 'total', desc: true }).rows.map((r) => r.uid)).toEqual(['99', '103', '101', '102']);
    expect(q({ sort: 'cross_risk' }).rows.map((r) => r.uid)).toEqual(['103', '99', '101', '102']);
    expect(q({ sort: 'cross_risk', desc: true }).rows[0]!.uid).toBe('103');
    const page = q({ offset: 1, limit: 2 });
    expect([page.total_rows, page.rows.map((r) => r.uid), page.column_totals.spot, page.grand_total]).toEqual([
      4,
      ['101', '102'],
      '460.5',
      '540',
    ]);
  });

  it('answers a view asked again as the first time, and works out the rows of a new load afresh', () => {
    const before = q({ sort: 'total', desc: true, limit: 3 });
    for (let i = 0; i < 10; i++) q({ search: String(i) }); // more views than are kept
    expect(q({ sort: 'total', desc: true, limit: 3 })).toEqual(before);
    const next = rows.map((r) => (r.uid === '102' ? { ...r, total: '1000' } : r));
    expect(queryRows(next, MatrixQuery.parse({ sort: 'total', desc: true })).rows[0]!.uid).toBe('102');
  });

  it('alerts on an active isolated pair below the threshold, never on an inactive one', () => {
    const c = conditionsOf(entries, { defaultThreshold: '1.3', thresholds: new Map(), floors: [] });
    expect(c.map((x) => [x.uid, x.kind, x.subject, x.value])).toEqual([['101', 'margin_risk', 'BTC_USDT', '1.2']]);
  });
});
