import { z } from 'zod';
import { describe, expect, it } from 'vitest';
import { ApiClient, type Priority } from './client.ts';
import { Scheduler } from './scheduler.ts';
import { BASE_URL, RateLimitedExchange } from './testkit/rateLimitedExchange.ts';
import { FakeTime } from './testkit/fakeTime.ts';
import { MAX_HOLD_MS, OPEN_MS, WINDOW_QUIET_MS, WindowFirst } from './windowFirst.ts';

// Background requests give way to the operator's window (docs/performance.md §Opening the desk): held while it asks, never for long.

function setup() {
  const time = new FakeTime();
  const ex = new RateLimitedExchange(time);
  const windowFirst = new WindowFirst(time);
  const client = new ApiClient({
    baseUrl: BASE_URL,
    credentials: { key: 'KEY-abcdef123456', secret: 'SECRET-0f9e8d7c6b5a' },
    fetch: ex.fetch,
    timer: time,
    scheduler: new Scheduler({ timer: time }),
    random: () => 0.5,
    windowFirst,
  });
  ex.on('GET', '/wallet/deposits', () => ({ body: Array.from({ length: 250 }, (_, i) => ({ id: `d${i}` })) }));
  return { time, ex, windowFirst, client };
}

/**
 * Drives virtual time a millisecond at a time, letting the event loop turn in between (a list read checks
 * its records a hundred per turn, which FakeTime.run does not wait for), until `work` settles.
 */
async function settle<T>(time: FakeTime, work: Promise<T>): Promise<T> {
  let done = false;
  void work.finally(() => (done = true)).catch(() => undefined);
  for (let ms = 0; !done && ms < 10_000; ms++) {
    for (let turn = 0; turn < 5 && !done; turn++) await new Promise((r) => setImmediate(r));
    if (!done) await time.advance(1);
  }
  return work;
}

/** When (virtual ms after `from`) the gate lets background work go on. */
async function opensAfter(time: FakeTime, gate: WindowFirst, from: number): Promise<number> {
  await time.run(gate.giveWay());
  return time.now() - from;
}

describe('WindowFirst', () => {
  it('lets background work go at once while the window is quiet', async () => {
    const { time, windowFirst } = setup();
    expect(await opensAfter(time, windowFirst, time.now())).toBe(0);
  });

  it('holds it until the window has been quiet for a while', async () => {
    const { time, windowFirst } = setup();
    const t0 = time.now();
    windowFirst.windowCalled();
    await time.advance(100);
    windowFirst.windowCalled();
    expect(await opensAfter(time, windowFirst, t0)).toBe(100 + WINDOW_QUIET_MS);
  });

  it('holds it no longer than the bound under a window that never stops asking, then lets it run a while', async () => {
    const { time, windowFirst } = setup();
    const t0 = time.now();
    let asking = true;
    const ask = () => {
      if (!asking) return;
      windowFirst.windowCalled();
      time.setTimeout(ask, 100);
    };
    ask();
    expect(await opensAfter(time, windowFirst, t0)).toBe(MAX_HOLD_MS);
    // Open for OPEN_MS whatever the window does, then held again.
    await time.advance(OPEN_MS - 1);
    expect(await opensAfter(time, windowFirst, time.now())).toBe(0);
    await time.advance(1);
    const t1 = time.now();
    const reopened = opensAfter(time, windowFirst, t1);
    expect(await reopened).toBe(MAX_HOLD_MS);
    asking = false;
  });
});

describe('the client under a window at work', () => {
  const read = (client: ApiClient, priority: Priority) =>
    client.requestList({ method: 'GET', path: '/wallet/deposits', priority }, z.object({ id: z.string() }));

  it('sends a background read once the window is quiet, and a read for the page at once', async () => {
    const { time, ex, windowFirst, client } = setup();
    const t0 = time.now();
    windowFirst.windowCalled();
    await settle(time, read(client, 'visible'));
    expect(ex.arrivals[0]!.at - t0).toBeLessThan(50);
    await settle(time, read(client, 'background'));
    expect(ex.arrivals[1]!.at - t0).toBeGreaterThanOrEqual(WINDOW_QUIET_MS);
    expect(ex.arrivals[1]!.at - t0).toBeLessThan(WINDOW_QUIET_MS + 50);
  });

  it("holds the checking of a background answer's records when the window asks meanwhile", async () => {
    const { time, windowFirst, client } = setup();
    let steps = 0;
    const checking = read(client, 'background').then((r) => {
      steps = r.records.length;
      return r;
    });
    // Sent while the window was quiet; the window asks before its answer's records are all checked.
    await time.advance(0);
    windowFirst.windowCalled();
    const t0 = time.now();
    await settle(time, checking);
    expect(steps).toBe(250);
    expect(time.now() - t0).toBeGreaterThanOrEqual(WINDOW_QUIET_MS);
  });
});
