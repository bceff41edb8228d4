import { mkdtemp, readdir, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { ApiClient } from '../client/client.ts';
import { HistoryCache } from './historyCache.ts';
import { HistoryExchange } from './testkit/historyExchange.ts';
import { thirtyDayWindows } from './windows.ts';

const DAY = 86_400;
const START = 1_767_225_600;

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'td-history-'));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

function world() {
  const ex = new HistoryExchange();
  let now = START;
  const client = new ApiClient({
    baseUrl: 'https://exchange.test/api/v4',
    credentials: { key: 'k', secret: 's' },
    fetch: ex.fetch,
    limitsOff: true,
  });
  const cache = () => new HistoryCache({ client, dir, nowSec: () => now, kinds: ['withdrawals', 'deposits'] });
  return { ex, client, cache, tick: (s: number) => (now += s), now: () => now };
}

function minimum(ex: HistoryExchange, kind: 'withdrawals' | 'deposits', from: number, to: number, limit: number): number {
  return thirtyDayWindows(from, to).reduce((sum, w) => {
    const n = ex[kind].filter((r) => Number(r.timestamp) >= w.from && Number(r.timestamp) <= w.to).length;
    return sum + Math.floor(n / limit) + 1;
  }, 0);
}

describe('history cache', () => {
  it('reads a year once with the fewest requests, then only what is new in at most 2 requests', async () => {
    const { ex, cache, tick, now } = world();
    ex.spread('withdrawals', START - 365 * DAY, START, 5_300);
    ex.spread('deposits', START - 365 * DAY, START, 2_100);
    const cold = await cache().sync();
    const expected = minimum(ex, 'withdrawals', START - 365 * DAY, START, 1000) + minimum(ex, 'deposits', START - 365 * DAY, START, 500);
    expect(cold.kind).toBe('cold');
    expect(cold.requests).toBe(expected);
    expect(ex.requests()).toBe(expected);
    expect([cold.newWithdrawals, cold.newDeposits]).toEqual([5_300, 2_100]);

    // A day later, in a fresh process: the file is read back and only the new records are fetched.
    tick(DAY);
    for (let i = 0; i < 7; i++) ex.add('withdrawals', now() - 3_600 + i);
    for (let i = 0; i < 4; i++) ex.add('deposits', now() - 60 + i);
    const before = ex.requests();
    const again = cache();
    const warm = await again.sync();
    expect(warm.kind).toBe('warm');
    expect(warm.requests).toBe(2);
    expect(ex.requests() - before).toBe(2);
    expect([warm.newWithdrawals, warm.newDeposits]).toEqual([7, 4]);
    expect(again.withdrawals()).toHaveLength(5_307);
    expect(again.deposits()).toHaveLength(2_104);
    expect(again.withdrawals()[0]!.timestamp).toBe(String(now() - 3_600 + 6));
  });

  it('catches a record that appeared late with a timestamp just before the last sync', async () => {
    const { ex, cache, tick, now } = world();
    ex.add('withdrawals', START - 100);
    const c = cache();
    await c.sync();
    ex.add('withdrawals', START - 30); // became visible after the sync that ended at START
    tick(120);
    const warm = await c.sync();
    expect(warm.newWithdrawals).toBe(1);
    expect(c.withdrawals().map((r) => r.timestamp)).toEqual([String(START - 30), String(START - 100)]);
    expect(now()).toBe(START + 120);
  });

  it('follows unfinished withdrawals by id, without re-reading their windows', async () => {
    const { ex, cache } = world();
    ex.spread('withdrawals', START - 365 * DAY, START, 3_000);
    const pending = [
      ex.add('withdrawals', START - 200 * DAY, 'REVIEW'),
      ex.add('withdrawals', START - 100 * DAY, 'EXTPEND'),
      ex.add('withdrawals', START - DAY, 'FAIL'),
    ];
    const c = cache();
    await c.sync();
    expect(c.unfinishedIds().sort()).toEqual(pending.map((p) => p.id).sort());

    pending[0]!.status = 'DONE';
    pending[1]!.status = 'CANCEL';
    const before = ex.requests();
    const report = await c.trackUnfinished();
    expect(report.requests).toBe(3);
    expect(ex.requests() - before).toBe(3);
    expect(ex.seen.slice(before).every((s) => s.query.has('withdraw_id'))).toBe(true);
    expect(report.changed.sort((a, b) => a.id.localeCompare(b.id))).toEqual(
      [
        { id: pending[0]!.id, status: 'DONE' },
        { id: pending[1]!.id, status: 'CANCEL' },
      ].sort((a, b) => a.id.localeCompare(b.id)),
    );
    // FAIL is "pending confirmation" (§3.1): still watched.
    expect(c.unfinishedIds()).toEqual([pending[2]!.id]);
    expect(report.stillUnfinished).toBe(1);
  });

  it("weighs a window's cost on the cache's time index, reading none of the 3,000 records' times", async () => {
    const { ex, cache } = world();
    ex.spread('withdrawals', START - 365 * DAY, START, 3_000, 'DONE');
    const pending = ex.add('withdrawals', START - DAY, 'EXTPEND');
    const c = cache();
    await c.sync();
    // Every statement's rows, as SQLite hands them to the cache.
    const statement = Object.getPrototypeOf(c.db.db.prepare('SELECT 1')) as { all: (...a: unknown[]) => unknown[] };
    const all = vi.spyOn(statement, 'all');
    try {
      pending.status = 'DONE';
      const report = await c.trackUnfinished();
      expect(report.changed).toEqual([{ id: pending.id, status: 'DONE' }]);
      const read = all.mock.results.map((r) => (r.value as unknown[]).length);
      expect(Math.max(0, ...read)).toBeLessThan(10);
    } finally {
      all.mockRestore();
    }
  });

  it('re-reads a window instead when that takes fewer requests than looking each one up', async () => {
    const { ex, cache } = world();
    ex.spread('withdrawals', START - 10 * DAY, START, 1_500, 'DONE');
    ex.spread('withdrawals', START - 9 * DAY, START - 8 * DAY, 5, 'REQUEST');
    const c = cache();
    await c.sync();
    expect(c.unfinishedIds()).toHaveLength(5);
    for (const r of ex.withdrawals) if (r.status === 'REQUEST') r.status = 'DONE';
    const report = await c.trackUnfinished();
    expect(report.requests).toBe(2); // one window of 1,505 records: 2 pages, against 5 lookups
    expect(report.stillUnfinished).toBe(0);
    expect(report.changed).toHaveLength(5);
  });

  it('keeps the cache in a private SQLite file, and starts cold from a damaged file, keeping it aside', async () => {
    const { ex, cache } = world();
    ex.spread('deposits', START - 3 * DAY, START, 10);
    const first = cache();
    await first.sync();
    first.close();
    expect((await readdir(dir)).filter((f) => f.endsWith('.sqlite'))).toEqual(['history.sqlite']);
    if (process.platform !== 'win32') expect((await stat(join(dir, 'history.sqlite'))).mode & 0o777).toBe(0o600);

    for (const f of await readdir(dir)) await rm(join(dir, f));
    await writeFile(join(dir, 'history.sqlite'), 'not a database, written by someone who can write the data folder');
    const fresh = cache();
    const report = await fresh.sync();
    expect(report.kind).toBe('cold');
    expect(fresh.deposits()).toHaveLength(10);
    expect((await readdir(dir)).some((f) => f.startsWith('history.sqlite.damaged-'))).toBe(true);
  });
});
