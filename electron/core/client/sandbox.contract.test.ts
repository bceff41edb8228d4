import { Fees, TotalBalance } from '../../../shared/api/records.ts';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { HistoryCache } from '../sync/historyCache.ts';
import { subAccountSpotBalances } from './subAccountBalances.ts';
import { thirtyDayWindows } from '../sync/windows.ts';
import { ApiClient } from './client.ts';
import { adminCall } from '../testkit/sandboxAdmin.ts';
import { useSandbox } from '../testkit/sandbox.ts';

// The real client against a real Sandbox over loopback, limits on.

/** Counts what actually went over the wire, by path and status. */
function countingFetch(log: Array<{ path: string; status: number }>): typeof fetch {
  return async (input: string | URL | Request, init?: RequestInit) => {
    const res = await fetch(input, init);
    log.push({ path: new URL(String(input)).pathname.replace(/^\/api\/v4/, ''), status: res.status });
    return res;
  };
}

const sb = useSandbox('td-client-contract');
describe('client against the Sandbox', () => {
  it('sends 100 reads of an 80 / 10 s endpoint at full speed without one 429', async () => {
    const wire: Array<{ path: string; status: number }> = [];
    const client = new ApiClient({
      baseUrl: sb.creds.base_url,
      credentials: sb.creds.main,
      account: sb.creds.main.uid,
      fetch: countingFetch(wire),
    });
    const answers = await Promise.all(
      Array.from({ length: 100 }, () => client.request({ method: 'GET', path: '/wallet/total_balance' }, TotalBalance)),
    );
    expect(answers.every((a) => typeof a.total.amount === 'string')).toBe(true);
    expect(wire.filter((w) => w.status === 429)).toHaveLength(0);
    expect(wire).toHaveLength(100);
  }, 40_000);

  it('works through a server clock 5 minutes off (REQUEST_EXPIRED never reaches the caller)', async () => {
    // The Sandbox's skew fault is part of what this test proves against: if it is missing, the test fails.
    await adminCall(sb.creds, 'POST', '/faults', { kind: 'skew', path: '*', skew_sec: 300 });
    try {
      const wire: Array<{ path: string; status: number }> = [];
      const client = new ApiClient({
        baseUrl: sb.creds.base_url,
        credentials: sb.creds.main,
        account: `${sb.creds.main.uid}-skew`,
        fetch: countingFetch(wire),
      });
      for (const path of ['/wallet/fee', '/wallet/fee'] as const) {
        await expect(client.request({ method: 'GET', path }, Fees)).resolves.toMatchObject({ taker_fee: expect.any(String) });
      }
      // One refusal, one resync, one retry; after that the desk signs with the server's time.
      expect(wire.map((w) => `${w.path} ${w.status}`)).toEqual(['/wallet/fee 401', '/spot/time 200', '/wallet/fee 200', '/wallet/fee 200']);
      expect(Math.abs(client.clock.offsetMs - 300_000)).toBeLessThan(2_000);
    } finally {
      await adminCall(sb.creds, 'DELETE', '/faults');
    }
  }, 30_000);

  it('reads a year of withdrawals and deposits in the fewest requests, then only what is new in 2', async () => {
    const wire: Array<{ path: string; status: number }> = [];
    const client = new ApiClient({
      baseUrl: sb.creds.base_url,
      credentials: sb.creds.main,
      account: `${sb.creds.main.uid}-history`,
      fetch: countingFetch(wire),
    });
    await client.syncClock();
    let now = Math.floor(client.clock.nowMs() / 1000);
    const cache = new HistoryCache({ client, dir: join(sb.dir, 'history'), nowSec: () => now, kinds: ['withdrawals', 'deposits'] });
    const counts = async (from: number, to: number) =>
      (await adminCall(sb.creds, 'GET', `/counts?uid=${sb.creds.main.uid}&from=${from}&to=${to}`)) as {
        withdrawals: number;
        deposits: number;
      };

    const cold = await cache.sync();
    let minimum = 0;
    for (const w of thirtyDayWindows(now - 365 * 86_400, now)) {
      const c = await counts(w.from, w.to);
      minimum += Math.floor(c.withdrawals / 1000) + 1 + Math.floor(c.deposits / 500) + 1;
    }
    const year = await counts(now - 365 * 86_400, now);
    expect(year.withdrawals).toBeGreaterThan(0);
    expect(cache.withdrawals()).toHaveLength(year.withdrawals);
    expect(cache.deposits()).toHaveLength(year.deposits);
    expect(cold.requests).toBe(minimum);
    expect(wire.filter((w) => w.status !== 200)).toEqual([]);

    for (let i = 0; i < 3; i++) await adminCall(sb.creds, 'POST', '/deposits', { uid: sb.creds.main.uid, currency: 'USDT', amount: '1.5' });
    now += 5;
    const warm = await cache.sync();
    expect(warm.kind).toBe('warm');
    expect(warm.requests).toBe(2);
    expect(warm.newDeposits).toBe(3);
    expect(cache.deposits()).toHaveLength(year.deposits + 3);

    // Unfinished withdrawals are followed without re-reading the year.
    const open = cache.unfinishedIds().length;
    const track = await cache.trackUnfinished();
    expect(track.requests).toBeLessThanOrEqual(Math.max(open, 1));
    expect(track.stillUnfinished).toBe(cache.unfinishedIds().length);
  }, 60_000);

  it('reads every sub-account spot balance in pages of 100', async () => {
    const client = new ApiClient({ baseUrl: sb.creds.base_url, credentials: sb.creds.main, account: `${sb.creds.main.uid}-subs` });
    const rows = [];
    for await (const r of subAccountSpotBalances(client)) rows.push(r);
    const c = (await adminCall(sb.creds, 'GET', `/counts?uid=${sb.creds.main.uid}`)) as { sub_accounts: number };
    expect(rows).toHaveLength(c.sub_accounts);
    expect(new Set(rows.map((r) => r.uid)).size).toBe(c.sub_accounts);
    expect(client.requestCount).toBe(Math.floor(c.sub_accounts / 100) + 1);
  }, 30_000);
});
