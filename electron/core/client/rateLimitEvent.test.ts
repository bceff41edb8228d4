import { z } from 'zod';
import { describe, expect, it } from 'vitest';
import { events } from '../../../shared/ipc.ts';
import { ApiClient } from './client.ts';
import { rateLimitEvent } from './rateLimitEvent.ts';
import { Scheduler, type BucketState } from './scheduler.ts';
import { BASE_URL, RateLimitedExchange } from './testkit/rateLimitedExchange.ts';
import { FakeTime } from './testkit/fakeTime.ts';

describe('rateLimits event', () => {
  it('carries queued, used, remaining and the pause (with its reason) of buckets in use in the shape of the IPC contract', async () => {
    const time = new FakeTime();
    const ex = new RateLimitedExchange(time);
    const seen: BucketState[][] = [];
    const scheduler = new Scheduler({ timer: time, onState: (s) => seen.push(s) });
    const client = new ApiClient({ baseUrl: BASE_URL, credentials: { key: 'k', secret: 's' }, fetch: ex.fetch, timer: time, scheduler });
    ex.external('POST', '/withdrawals', 'k', 1);
    const sends = Array.from({ length: 3 }, () =>
      client.request({ method: 'POST', path: '/withdrawals', body: {} }, z.unknown()).catch(() => undefined),
    );
    await time.run(Promise.all(sends));
    const payloads = seen.map((s) => events.rateLimits.parse(rateLimitEvent(s)));
    const paused = payloads.flatMap((p) => p.buckets).find((b) => b.paused_until_ms !== null);
    expect(paused).toBeDefined();
    expect(paused!.key).toContain('POST /withdrawals');
    expect(paused!.limit).toBe(1);
    expect(payloads.flatMap((p) => p.buckets).some((b) => b.queued === 2)).toBe(true);
    expect(paused!.pause_reason).toBe('too_many_requests');
    await time.advance(3_100);
    expect(events.rateLimits.parse(rateLimitEvent(seen.at(-1)!))).toEqual({ buckets: [] });
  });
});
