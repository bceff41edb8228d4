import { parse } from 'csv-parse/sync';
import { describe, expect, it } from 'vitest';
import { isFinalWithdrawalStatus } from '../../../shared/api/statuses.ts';
import { HistoryDb } from '../cache/historyDb.ts';
import { exportCsv } from './csv.ts';

describe('CSV export', () => {
  it('writes the whole filtered list with wire names, and never a cell a spreadsheet would run', () => {
    const db = new HistoryDb({ path: ':memory:' });
    const rows = Array.from({ length: 2_500 }, (_, n) => ({
      id: `w${n}`,
      timestamp: String(1_700_000_000 + n),
      amount: `${n}.5`,
      currency: n % 2 ? 'USDT' : 'BTC',
      status: 'DONE',
      chain: 'TRX',
      address: n === 7 ? '=HYPERLINK("http://evil.test","click")' : `T${n}`,
      memo: 'a, "quoted" memo',
      txid: `tx${n}`,
    }));
    db.upsert('withdrawals', rows, isFinalWithdrawalStatus);
    const { csv, rows: count } = exportCsv(db, 'withdrawals', { filters: { currency: 'BTC' }, sort: { by: 'amount', dir: 'asc' } });
    const parsed = parse(csv, { columns: true }) as Array<Record<string, string>>;
    expect(count).toBe(1_250);
    expect(parsed).toHaveLength(1_250);
    expect(parsed.map((r) => r.id)).toEqual(rows.filter((r) => r.currency === 'BTC').map((r) => r.id));
    expect(parsed[0]!.memo).toBe('a, "quoted" memo');
    expect(parsed.find((r) => r.id === 'w6')!.address).toBe('T6');
    expect(db.get('withdrawals', 'w7')).not.toBeNull();
    const all = parse(exportCsv(db, 'withdrawals', { filters: {}, sort: { by: 'time', dir: 'desc' } }).csv, { columns: true }) as Array<
      Record<string, string>
    >;
    expect(all.find((r) => r.id === 'w7')!.address).toBe('\'=HYPERLINK("http://evil.test","click")');
    db.close();
  });
});
