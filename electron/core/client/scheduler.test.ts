import { z } from 'zod';
import { describe, expect, it } from 'vitest';
import { ApiClient, type ApiRequest, type Priority } from './client.ts';
import type { BucketState } from './scheduler.ts';
import { Scheduler } from './scheduler.ts';
import { BASE_URL, RateLimitedExchange, type Arrival } from './testkit/rateLimitedExchange.ts';
import { FakeTime } from './testkit/fakeTime.ts';

const CREDS = { key: 'k-main', secret: 's-main' };

/** A deterministic latency between 1 and 30 ms, so that answers come back out of order. */
function jitter(seed: number): (n: number) => number {
  return (n) => 1 + ((n * 7919 + seed * 104729) % 30);
}

function setup(opts: { onState?: (b: BucketState[]) => void; latency?: (n: number) => number } = {}) {
  const time = new FakeTime();
  const ex = new RateLimitedExchange(time, { latency: opts.latency ?? jitter(1) });
  const scheduler = new Scheduler({ timer: time, onState: opts.onState });
  const client = new ApiClient({ baseUrl: BASE_URL, credentials: CREDS, fetch: ex.fetch, timer: time, scheduler, random: () => 0.5 });
  return { time, ex, scheduler, client };
}

/** The largest number of arrivals that fall in any rolling window of `windowMs` (an independent recount). */
function worstWindow(times: number[], windowMs: number): number {
  const t = [...times].sort((a, b) => a - b);
  let worst = 0;
  let lo = 0;
  for (let hi = 0; hi < t.length; hi++) {
    while (t[hi]! - t[lo]! >= windowMs) lo++;
    worst = Math.max(worst, hi - lo + 1);
  }
  return worst;
}

function arrivalsOf(list: Arrival[], method: string, path: string): number[] {
  return list.filter((a) => a.method === method && a.path === path).map((a) => a.at);
}

describe('Scheduler against a rate-limited exchange (virtual time)', () => {
  it('sends a burst of 500 reads over five buckets without exceeding any limit, and without idling', async () => {
    const { time, ex, client } = setup();
    // Limits as §8.2 states them, written out here rather than read from the table under test.
    const plan: Array<{ path: string; n: number; limit: number; windowMs: number; signed: boolean }> = [
      { path: '/wallet/total_balance', n: 200, limit: 80, windowMs: 10_000, signed: true },
      { path: '/wallet/sub_account_balances', n: 100, limit: 80, windowMs: 10_000, signed: true },
      { path: '/wallet/deposits', n: 90, limit: 200, windowMs: 10_000, signed: true },
      { path: '/wallet/withdrawals', n: 60, limit: 200, windowMs: 10_000, signed: true },
      { path: '/spot/currencies', n: 50, limit: 200, windowMs: 10_000, signed: false },
    ];
    const priorities: Priority[] = ['background', 'visible', 'action'];
    const reqs: ApiRequest[] = [];
    for (const p of plan) {
      for (let i = 0; i < p.n; i++) reqs.push({ method: 'GET', path: p.path, signed: p.signed, priority: priorities[i % 3] });
    }
    // Interleave buckets as a real refresh would (a fixed shuffle).
    let seed = 42;
    for (let i = reqs.length - 1; i > 0; i--) {
      seed = (seed * 1103515245 + 12345) % 2 ** 31;
      const j = seed % (i + 1);
      [reqs[i], reqs[j]] = [reqs[j]!, reqs[i]!];
    }
    expect(reqs).toHaveLength(500);
    const start = time.now();
    const results = await time.run(Promise.allSettled(reqs.map((r) => client.request(r, z.unknown()))));

    expect(results.filter((r) => r.status === 'rejected')).toEqual([]);
    expect(ex.arrivals.filter((a) => a.status === 429)).toHaveLength(0);
    expect(ex.arrivals).toHaveLength(500);
    for (const p of plan) {
      expect(worstWindow(arrivalsOf(ex.arrivals, 'GET', p.path), p.windowMs), p.path).toBeLessThanOrEqual(p.limit);
    }
    // 200 reads at 80 per 10 s need at least two full windows after the first one opens; the scheduler
    // should dispatch as soon as each window allows, so only round trips and the safety margin add to that.
    const makespan = time.now() - start;
    expect(makespan).toBeGreaterThanOrEqual(20_000);
    expect(makespan).toBeLessThan(21_000);
  });

  it('sends 20 withdrawals one every 3 seconds (1 per 3 s, §8.2)', async () => {
    const { time, ex, client } = setup({ latency: (n) => 1 + (n % 5) }); // loopback-like round trips
    const start = time.now();
    const sends = Array.from({ length: 20 }, (_, i) =>
      client.request(
        {
          method: 'POST',
          path: '/withdrawals',
          body: { withdraw_order_id: `w${i}`, currency: 'USDT', amount: '1', address: 'a', chain: 'TRX' },
          priority: 'action',
        },
        z.unknown(),
      ),
    );
    await time.run(Promise.all(sends));
    const at = arrivalsOf(ex.arrivals, 'POST', '/withdrawals');
    expect(at).toHaveLength(20);
    expect(ex.arrivals.filter((a) => a.status !== 200)).toHaveLength(0);
    for (let i = 1; i < at.length; i++) {
      const gap = at[i]! - at[i - 1]!;
      expect(gap).toBeGreaterThanOrEqual(3000);
      expect(gap).toBeLessThan(3000 + 100);
    }
    // Makespan to the 20th accepted answer stays within 1 s of the bound 3 × 19 s.
    expect(time.now() - start).toBeLessThan(57_000 + 1_000);
    // The bodies went out in the order they were handed over.
    expect(ex.arrivals.map((a) => JSON.parse(a.body).withdraw_order_id)).toEqual(Array.from({ length: 20 }, (_, i) => `w${i}`));
  });

  it("lets a person's action overtake queued background polling in the same bucket", async () => {
    const { time, ex, client } = setup({ latency: () => 5 });
    const polls = Array.from({ length: 200 }, () =>
      client.request({ method: 'GET', path: '/wallet/total_balance', priority: 'background' }, z.unknown()),
    );
    await time.advance(2_000); // the first 80 have gone; 120 wait for the window
    expect(ex.count('GET', '/wallet/total_balance')).toBe(80);
    ex.on('GET', '/wallet/total_balance', (a) => ({ body: { who: a.query.get('who') ?? 'poll' } }));
    const click = client.request(
      { method: 'GET', path: '/wallet/total_balance', query: [['who', 'person']], priority: 'action' },
      z.custom<{ who: string }>(),
    );
    await time.run(Promise.all([click, ...polls]));
    const order = ex.arrivals.map((a) => a.query.get('who') ?? 'poll');
    expect(order.indexOf('person')).toBe(80); // the first request the next window allowed
    expect(ex.arrivals.filter((a) => a.status === 429)).toHaveLength(0);
  });

  it('lets an action overtake background work waiting for the in-flight cap', async () => {
    const { time, ex, client } = setup({ latency: () => 500 });
    await time.run(client.request({ method: 'GET', path: '/wallet/deposits' }, z.unknown()));
    ex.arrivals.length = 0;
    const polls = Array.from({ length: 40 }, (_, i) =>
      client.request({ method: 'GET', path: `/wallet/deposits`, query: [['n', String(i)]], priority: 'background' }, z.unknown()),
    );
    const click = client.request({ method: 'GET', path: '/wallet/saved_address', priority: 'action' }, z.unknown());
    await time.run(Promise.all([click, ...polls]));
    const firstWave = ex.arrivals.slice(0, 9).map((a) => a.path);
    // Eight background reads were already in flight when the click came; the click is the ninth to leave.
    expect(firstWave.slice(0, 8).every((p) => p === '/wallet/deposits')).toBe(true);
    expect(firstWave[8]).toBe('/wallet/saved_address');
  });

  it('pauses a bucket on 429 until the reset time, retries the read, and keeps other buckets going', async () => {
    const states: BucketState[][] = [];
    const { time, ex, client } = setup({ onState: (s) => states.push(s) });
    // Another program on the same key used up the 80 / 10 s budget one second ago.
    ex.external('GET', '/wallet/total_balance', CREDS.key, 80);
    await time.advance(1_000);
    const t0 = time.now();
    const first = client.request({ method: 'GET', path: '/wallet/total_balance' }, z.unknown());
    const more = Array.from({ length: 5 }, () => client.request({ method: 'GET', path: '/wallet/total_balance' }, z.unknown()));
    const other = client.request({ method: 'GET', path: '/wallet/deposits' }, z.unknown());
    await time.run(other);
    expect(ex.count('GET', '/wallet/deposits')).toBe(1);
    await time.run(Promise.all([first, ...more]));

    const tb = ex.arrivals.filter((a) => a.path === '/wallet/total_balance');
    expect(tb.filter((a) => a.status === 429)).toHaveLength(1);
    const resetAt = t0 - 1_000 + 10_000; // the external burst leaves the window
    const after = tb.filter((a) => a.status === 200);
    expect(after).toHaveLength(6);
    for (const a of after) expect(a.at).toBeGreaterThanOrEqual(resetAt);
    // The deposits read did not wait for the paused bucket.
    expect(ex.arrivals.find((a) => a.path === '/wallet/deposits')!.at).toBeLessThan(resetAt);
    // The listener saw the pause with the queued requests, then an idle picture.
    const paused = states.flat().find((s) => s.rule === 'wallet_80' && s.pausedUntil !== null);
    expect(paused).toBeDefined();
    expect(paused!.pausedUntil!).toBeGreaterThanOrEqual(resetAt);
    expect(states.flat().some((s) => s.rule === 'wallet_80' && s.pausedUntil !== null && s.queued >= 5)).toBe(true);
    expect(paused!.pauseReason).toBe('too_many_requests');
    // The bucket stays in view while its window holds requests, and leaves it when the window empties.
    expect(states.at(-1)!.find((s) => s.rule === 'wallet_80')).toMatchObject({ queued: 0, pausedUntil: null, used: 6 });
    await time.advance(10_100);
    expect(states.at(-1)).toEqual([]);
  });

  it('lowers the remaining budget when the headers show requests it did not send', async () => {
    const { time, ex, client } = setup();
    // 190 of 200 used elsewhere: only 10 more fit in this window, though the table says 200.
    ex.external('GET', '/wallet/deposits', CREDS.key, 190);
    const reads = Array.from({ length: 30 }, () => client.request({ method: 'GET', path: '/wallet/deposits' }, z.unknown()));
    await time.run(Promise.all(reads));
    expect(ex.arrivals.filter((a) => a.status === 429)).toHaveLength(0);
    const at = arrivalsOf(ex.arrivals, 'GET', '/wallet/deposits');
    expect(at).toHaveLength(30);
    const early = at.filter((t) => t < at[0]! + 10_000);
    expect(early.length).toBeLessThanOrEqual(10);
  });

  it("does not take its own requests for another program's when window slots expire while answers are out", async () => {
    // 240 writes of one endpoint (80 per 10 s), 8 in flight, answers out of order: three windows' worth.
    const { time, ex, client } = setup({ latency: jitter(5) });
    ex.on('POST', '/wallet/sub_account_to_sub_account', () => ({ body: { tx_id: 1 } }));
    const sends = Array.from({ length: 240 }, () =>
      client.request({ method: 'POST', path: '/wallet/sub_account_to_sub_account', body: {} }, z.any()),
    );
    await time.run(Promise.all(sends));
    const at = arrivalsOf(ex.arrivals, 'POST', '/wallet/sub_account_to_sub_account');
    expect(ex.arrivals.filter((a) => a.status === 429)).toHaveLength(0);
    expect(worstWindow(at, 10_000)).toBeLessThanOrEqual(80);
    // Two waits of a window, plus the time the answers take: no third wait for budget that was never spent.
    expect(Math.max(...at) - Math.min(...at)).toBeLessThan(22_000);
  });

  it("reads the rate-limit headers under the profile's service name (§4.3)", async () => {
    const time = new FakeTime();
    const ex = new RateLimitedExchange(time, { svc: 'Acme', latency: jitter(3) });
    const client = new ApiClient({ baseUrl: BASE_URL, credentials: CREDS, fetch: ex.fetch, timer: time, svc: 'Acme' });
    ex.external('GET', '/wallet/deposits', CREDS.key, 195);
    await time.run(Promise.all(Array.from({ length: 12 }, () => client.request({ method: 'GET', path: '/wallet/deposits' }, z.unknown()))));
    expect(ex.arrivals.filter((a) => a.status === 429)).toHaveLength(0);
  });

  it('honours a lower limit announced by X-Svc-RateLimit-Limit', async () => {
    const { time, ex, client } = setup();
    ex.on('GET', '/wallet/fee', () => ({ body: {} }));
    const original = ex.fetch;
    // The server says this endpoint allows 5 per window for this key (a per-account setting).
    const fetchWithLowerLimit = (async (url: string, init: RequestInit) => {
      const res = await original(url, init);
      const h = new Headers(res.headers);
      const count = ex.count('GET', '/wallet/fee');
      h.set('X-Svc-RateLimit-Limit', '5');
      h.set('X-Svc-RateLimit-Requests-Remain', String(Math.max(0, 5 - count)));
      return { ok: res.ok, status: res.status, headers: h, text: () => res.text() } as unknown as Response;
    }) as typeof fetch;
    const c2 = new ApiClient({
      baseUrl: BASE_URL,
      credentials: CREDS,
      fetch: fetchWithLowerLimit,
      timer: time,
      scheduler: client.scheduler,
    });
    await time.run(c2.request({ method: 'GET', path: '/wallet/fee' }, z.unknown()));
    const rest = Array.from({ length: 9 }, () => c2.request({ method: 'GET', path: '/wallet/fee' }, z.unknown()));
    await time.run(Promise.all(rest));
    const at = arrivalsOf(ex.arrivals, 'GET', '/wallet/fee');
    expect(worstWindow(at, 10_000)).toBeLessThanOrEqual(5);
  });

  it('turns every limit off for a Sandbox profile that asks for it', async () => {
    const time = new FakeTime();
    const ex = new RateLimitedExchange(time, { limits: false });
    const client = new ApiClient({ baseUrl: BASE_URL, credentials: CREDS, fetch: ex.fetch, timer: time, limitsOff: true });
    const start = time.now();
    await time.run(
      Promise.all(Array.from({ length: 20 }, () => client.request({ method: 'POST', path: '/withdrawals', body: {} }, z.unknown()))),
    );
    expect(ex.count('POST', '/withdrawals')).toBe(20);
    expect(time.now() - start).toBeLessThan(1_000);
  });
});
