import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import Database from 'better-sqlite3';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { isFinalWithdrawalStatus } from '../../../shared/api/statuses.ts';
import { HistoryDb } from './historyDb.ts';

let dir: string;
let db: HistoryDb;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'td-db-'));
  db = new HistoryDb({ path: join(dir, 'h.sqlite') });
});
afterEach(() => {
  db.close();
  rmSync(dir, { recursive: true, force: true });
});

function withdrawal(n: number, over: Partial<Record<string, string>> = {}) {
  return {
    id: `w${n}`,
    txid: `tx${n}`,
    block_number: '',
    withdraw_order_id: `wo_${n}`,
    timestamp: String(1_700_000_000 + (n % 997) * 60),
    amount: `${n % 50}.${String(n % 7).padStart(2, '0')}`,
    fee: '0.1',
    currency: n % 3 ? 'USDT' : 'BTC',
    address: `addr${n}x`,
    type: 'onchain',
    fail_reason: '',
    timestamp2: '',
    memo: '',
    status: n % 5 ? 'DONE' : 'EXTPEND',
    chain: n % 2 ? 'TRX' : 'ETH',
    ...over,
  };
}

describe('history cache pages', () => {
  it('pages by keyset with no repeat and no gap while rows are inserted between pages', () => {
    fc.assert(
      fc.property(
        fc.constantFrom<'time' | 'amount'>('time', 'amount'),
        fc.constantFrom<'asc' | 'desc'>('asc', 'desc'),
        fc.integer({ min: 1, max: 97 }),
        fc.array(fc.integer({ min: 100_000, max: 200_000 }), { maxLength: 60 }),
        (by, dir, limit, inserts) => {
          db.db.exec('DELETE FROM withdrawals');
          db.upsert(
            'withdrawals',
            Array.from({ length: 500 }, (_, i) => withdrawal(i)),
            isFinalWithdrawalStatus,
          );
          const before = new Set(Array.from({ length: 500 }, (_, i) => `w${i}`));
          const seen: string[] = [];
          let cursor: string | undefined;
          let k = 0;
          for (let guard = 0; guard < 2000; guard++) {
            const page = db.page('withdrawals', {}, { by, dir }, limit, cursor);
            seen.push(...page.rows.map((r) => r.key));
            // Someone's sync lands between two pages.
            const batch = inserts.slice(k, k + 3);
            k += 3;
            if (batch.length)
              db.upsert(
                'withdrawals',
                batch.map((n) => withdrawal(n)),
                isFinalWithdrawalStatus,
              );
            if (!page.next_cursor) break;
            cursor = page.next_cursor;
          }
          expect(new Set(seen).size).toBe(seen.length);
          for (const id of before) expect(seen).toContain(id);
        },
      ),
      { numRuns: 15 },
    );
  });

  it('answers the page at an offset with the rows the keyset pages hold at that position, filtered and sorted', () => {
    db.upsert(
      'withdrawals',
      Array.from({ length: 500 }, (_, i) => withdrawal(i)),
      isFinalWithdrawalStatus,
    );
    fc.assert(
      fc.property(
        fc.constantFrom<'time' | 'amount'>('time', 'amount'),
        fc.constantFrom<'asc' | 'desc'>('asc', 'desc'),
        fc.constantFrom({}, { currency: 'BTC' }, { status: 'EXTPEND', chain: 'TRX' }, { search: 'addr1' }),
        fc.integer({ min: 0, max: 520 }),
        fc.integer({ min: 1, max: 97 }),
        (by, dir, filters, offset, limit) => {
          const all = [...db.iterate('withdrawals', filters, { by, dir })].map((r) => r.key);
          const page = db.page('withdrawals', filters, { by, dir }, limit, undefined, offset);
          expect(page.total).toBe(all.length);
          expect(page.rows.map((r) => r.key)).toEqual(all.slice(offset, offset + limit));
        },
      ),
      { numRuns: 40 },
    );
  });

  it('sorts amounts as decimals, not as text or floats', () => {
    db.upsert(
      'withdrawals',
      [
        withdrawal(1, { amount: '10' }),
        withdrawal(2, { amount: '9.99999999' }),
        withdrawal(3, { amount: '100.1' }),
        withdrawal(4, { amount: '0.00000001' }),
        withdrawal(5, { amount: '0.3' }),
        withdrawal(6, { amount: '0.30000001' }),
      ],
      isFinalWithdrawalStatus,
    );
    const asc = db.page('withdrawals', {}, { by: 'amount', dir: 'asc' }, 10).rows.map((r) => r.wire.amount);
    expect(asc).toEqual(['0.00000001', '0.3', '0.30000001', '9.99999999', '10', '100.1']);
  });

  it('filters by currency, status, chain, date range and a fragment of address, txid or withdraw_order_id', () => {
    db.upsert(
      'withdrawals',
      Array.from({ length: 300 }, (_, i) => withdrawal(i)),
      isFinalWithdrawalStatus,
    );
    const all = Array.from({ length: 300 }, (_, i) => withdrawal(i));
    const q = (f: Parameters<HistoryDb['page']>[1]) => db.page('withdrawals', f, { by: 'time', dir: 'desc' }, 500);
    expect(q({ status: 'EXTPEND', chain: 'TRX', currency: 'usdt' }).total).toBe(
      all.filter((w) => w.status === 'EXTPEND' && w.chain === 'TRX' && w.currency === 'USDT').length,
    );
    expect(
      q({ search: 'addr12' })
        .rows.map((r) => r.key)
        .sort(),
    ).toEqual(
      all
        .filter((w) => w.address.includes('addr12'))
        .map((w) => w.id)
        .sort(),
    );
    expect(q({ search: 'wo_299' }).rows.map((r) => r.key)).toEqual(['w299']);
    expect(q({ search: '%' }).total).toBe(0);
    const from = 1_700_000_000 + 100 * 60;
    const to = 1_700_000_000 + 200 * 60;
    expect(q({ from, to }).total).toBe(all.filter((w) => Number(w.timestamp) >= from && Number(w.timestamp) <= to).length);
  });

  it('refuses records without an id or with an amount that is not a decimal, and stores nothing of them', () => {
    const r = db.upsert(
      'withdrawals',
      [withdrawal(1, { amount: '1e999999999' }), { ...withdrawal(2), id: '' }, withdrawal(3, { amount: 'abc' }), withdrawal(4)],
      isFinalWithdrawalStatus,
    );
    expect(r.rejected).toHaveLength(3);
    expect(db.count('withdrawals')).toBe(1);
  });

  it('keeps each status it saw, in order, as the timeline', () => {
    db.upsert('withdrawals', [withdrawal(5, { status: 'REQUEST' })], isFinalWithdrawalStatus);
    db.upsert('withdrawals', [withdrawal(5, { status: 'REQUEST' })], isFinalWithdrawalStatus);
    db.upsert('withdrawals', [withdrawal(5, { status: 'EXTPEND' })], isFinalWithdrawalStatus);
    db.upsert('withdrawals', [withdrawal(5, { status: 'DONE' })], isFinalWithdrawalStatus);
    expect(db.timeline('withdrawals', 'w5').map((t) => t.status)).toEqual(['REQUEST', 'EXTPEND', 'DONE']);
    expect(db.openCount('withdrawals')).toBe(0);
  });
});

describe('history cache totals', () => {
  it('counts a list once per filter until a record is written new or changed: a sort or the next page reads the length kept', () => {
    db.upsert(
      'withdrawals',
      [1, 2, 3, 4, 5].map((n) => withdrawal(n)),
      isFinalWithdrawalStatus,
    );
    const desc = { by: 'time', dir: 'desc' } as const;
    expect(db.page('withdrawals', {}, desc, 2).total).toBe(5);
    expect(db.page('withdrawals', { status: 'EXTPEND' }, desc, 2).total).toBe(1);
    // A row written behind the cache's back (another connection) is not counted: no COUNT ran again.
    const other = new Database(join(dir, 'h.sqlite'));
    other
      .prepare(
        "INSERT INTO withdrawals (key, id, timestamp, amount, status, ts, amount_scaled, first_seen) VALUES ('w99', 'w99', '1700000000', '1', 'DONE', 1700000000000, 100000000, 0)",
      )
      .run();
    other.close();
    expect(db.page('withdrawals', {}, { by: 'amount', dir: 'asc' }, 2).total).toBe(5);
    expect(db.page('withdrawals', {}, desc, 2, undefined, 2).total).toBe(5);
    // A sync that reads back what the cache holds changes no length; a record new or changed counts again.
    db.upsert(
      'withdrawals',
      [1, 2, 3, 4, 5].map((n) => withdrawal(n)),
      isFinalWithdrawalStatus,
    );
    expect(db.page('withdrawals', {}, desc, 2).total).toBe(5);
    db.upsert('withdrawals', [withdrawal(6)], isFinalWithdrawalStatus);
    expect(db.page('withdrawals', {}, desc, 2).total).toBe(7);
    expect(db.page('withdrawals', { status: 'EXTPEND' }, desc, 2).total).toBe(1);
  });
});

describe('history cache statements', () => {
  it('prepares each statement once per cache: a second round of every call compiles nothing', () => {
    const prepare = vi.spyOn(Database.prototype, 'prepare');
    const round = (n: number) => {
      db.setMeta('cursor', String(n));
      db.getMeta('cursor');
      db.setMeta('cursor', null);
      db.upsert('withdrawals', [withdrawal(n, { status: 'REQUEST' }), withdrawal(n + 1)], isFinalWithdrawalStatus);
      for (const filters of [
        {},
        { currency: 'usdt', status: 'DONE', chain: 'TRX', from: 1, to: 2_000_000_000 },
        { search: 'addr' },
        { search: 'ad' },
      ])
        for (const sort of [
          { by: 'time', dir: 'desc' },
          { by: 'amount', dir: 'asc' },
        ] as const) {
          const first = db.page('withdrawals', filters, sort, 1);
          if (first.next_cursor) db.page('withdrawals', filters, sort, 1, first.next_cursor);
        }
      db.get('withdrawals', `w${n}`);
      db.timeline('withdrawals', `w${n}`);
      db.open('withdrawals');
      db.open('withdrawals', Date.now());
      db.openCount('withdrawals');
      db.deferCheck('withdrawals', `w${n}`, 1000, 60_000);
      db.countBetween('withdrawals', 0, 2_000_000_000);
      db.flag('withdrawals', `w${n}`);
      db.unflag('withdrawals', `w${n}`);
      db.flag('withdrawals', `w${n + 1}`);
      db.acknowledge('withdrawals', `w${n + 1}`, 'ours');
      db.flagged(true);
      db.unsentCount();
      db.since('withdrawals', 0);
    };
    try {
      round(10);
      const compiled = prepare.mock.calls.length;
      expect(compiled).toBeGreaterThan(10);
      prepare.mockClear();
      round(20);
      expect(prepare.mock.calls.map(([sql]) => sql)).toEqual([]);
      // The statements kept still answer: the second round's rows are there.
      expect(db.count('withdrawals')).toBe(4);
      expect(
        db
          .flagged(true)
          .map((f) => f.row.key)
          .sort(),
      ).toEqual(['w11', 'w21']);
    } finally {
      prepare.mockRestore();
    }
  });
});
