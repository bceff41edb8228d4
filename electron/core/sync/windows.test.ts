import { describe, expect, it } from 'vitest';
import { collect, HistoryExchange, historyClient } from './testkit/historyExchange.ts';
import { MAX_RANGE_SEC, thirtyDayWindows, windowedRecords } from './windows.ts';

const DAY = 86_400;
const NOW = 1_767_225_600; // 2026-01-01T00:00:00Z

const client = historyClient;

describe('30-day windows', () => {
  it('covers a year with 13 contiguous windows of at most 30 days', () => {
    const w = thirtyDayWindows(NOW - 365 * DAY, NOW);
    expect(w).toHaveLength(13);
    expect(w[0]!.from).toBe(NOW - 365 * DAY);
    expect(w.at(-1)!.to).toBe(NOW);
    for (const x of w) expect(x.to - x.from).toBeLessThanOrEqual(MAX_RANGE_SEC);
    for (let i = 1; i < w.length; i++) expect(w[i]!.from).toBe(w[i - 1]!.to);
  });

  it('reads each window in floor(n / 1000) + 1 requests and yields every withdrawal once', async () => {
    const ex = new HistoryExchange();
    const windows = thirtyDayWindows(NOW - 150 * DAY, NOW);
    const counts = [0, 999, 1000, 1001, 2500];
    windows.forEach((w, i) => ex.spread('withdrawals', w.from + 1, w.to - 1, counts[i]!));
    // Records exactly on a shared boundary are returned by both neighbours; they must come out once.
    ex.add('withdrawals', windows[1]!.to);
    ex.add('withdrawals', windows[3]!.to);
    const rows = await collect(windowedRecords(client(ex), { path: '/wallet/withdrawals', from: NOW - 150 * DAY, to: NOW }));
    const total = counts.reduce((a, b) => a + b, 0) + 2;
    expect(rows).toHaveLength(total);
    expect(new Set(rows.map((r) => r.id)).size).toBe(total);
    // The two boundary records fall in windows 1/2 and 3/4 and count toward both.
    const perWindow = [0, 1000, 1001, 1002, 2500];
    const minimum = perWindow.reduce((a, n) => a + Math.floor(n / 1000) + 1, 0);
    expect(ex.requests('/wallet/withdrawals')).toBe(minimum);
    for (const s of ex.seen) expect(s.query.get('limit')).toBe('1000');
  });

  it('reads deposits 500 at a time (their maximum)', async () => {
    const ex = new HistoryExchange();
    ex.spread('deposits', NOW - 20 * DAY, NOW, 1200);
    const rows = await collect(windowedRecords(client(ex), { path: '/wallet/deposits', from: NOW - 20 * DAY, to: NOW }));
    expect(rows).toHaveLength(1200);
    expect(ex.requests()).toBe(3);
    expect(ex.seen.map((s) => s.query.get('offset'))).toEqual(['0', '500', '1000']);
  });

  it('sends no range the exchange would refuse, however long the span', async () => {
    const ex = new HistoryExchange();
    ex.spread('withdrawals', NOW - 400 * DAY, NOW, 400);
    const rows = await collect(
      windowedRecords(client(ex), { path: '/wallet/withdrawals', from: NOW - 400 * DAY, to: NOW, concurrency: 8 }),
    );
    expect(rows).toHaveLength(400);
    expect(ex.requests()).toBe(Math.ceil(400 / 30));
  });

  it('passes a refusal on to the caller', async () => {
    const ex = new HistoryExchange();
    const it = windowedRecords(client(ex), { path: '/wallet/withdrawals', from: NOW - 10 * DAY, to: NOW, limit: 5000 });
    await expect(collect(it)).rejects.toMatchObject({ label: 'INVALID_PARAM_VALUE' });
  });
});

describe('30-day windows (property)', () => {
  it('cover any range exactly, in the fewest windows, none longer than 30 days', async () => {
    const fc = (await import('fast-check')).default;
    fc.assert(
      fc.property(fc.integer({ min: 1_500_000_000, max: 1_800_000_000 }), fc.integer({ min: 1, max: 800 * DAY }), (from, len) => {
        const w = thirtyDayWindows(from, from + len);
        expect(w[0]!.from).toBe(from);
        expect(w.at(-1)!.to).toBe(from + len);
        expect(w).toHaveLength(Math.ceil(len / MAX_RANGE_SEC));
        for (let i = 0; i < w.length; i++) {
          expect(w[i]!.to - w[i]!.from).toBeGreaterThan(0);
          expect(w[i]!.to - w[i]!.from).toBeLessThanOrEqual(MAX_RANGE_SEC);
          if (i > 0) expect(w[i]!.from).toBe(w[i - 1]!.to);
        }
      }),
    );
  });
});
