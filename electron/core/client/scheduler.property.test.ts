import { z } from 'zod';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ApiClient, type Priority } from './client.ts';
import { Scheduler } from './scheduler.ts';
import { BASE_URL, RateLimitedExchange } from './testkit/rateLimitedExchange.ts';
import { FakeTime } from './testkit/fakeTime.ts';

// Whatever the mix of endpoints, priorities, arrival times and round trips, no bucket sees a 429 and
// every request is answered.

const ENDPOINTS = [
  { method: 'GET', path: '/wallet/total_balance' },
  { method: 'GET', path: '/wallet/sub_account_balances' },
  { method: 'GET', path: '/wallet/withdrawals' },
  { method: 'POST', path: '/withdrawals' },
  { method: 'POST', path: '/wallet/sub_account_transfers' },
  { method: 'GET', path: '/spot/tickers' },
] as const;
const PRIORITIES: Priority[] = ['action', 'visible', 'background'];

describe('Scheduler (property)', () => {
  it('never draws a 429 from an exchange that enforces §8.2, for any request mix', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.record({ endpoint: fc.nat(ENDPOINTS.length - 1), priority: fc.nat(2), delayMs: fc.nat(4_000) }), {
          minLength: 1,
          maxLength: 250,
        }),
        fc.array(fc.integer({ min: 1, max: 80 }), { minLength: 1, maxLength: 16 }),
        async (reqs, latencies) => {
          const time = new FakeTime();
          const ex = new RateLimitedExchange(time, { latency: (n) => latencies[n % latencies.length]! });
          const client = new ApiClient({
            baseUrl: BASE_URL,
            credentials: { key: 'k', secret: 's' },
            fetch: ex.fetch,
            timer: time,
            scheduler: new Scheduler({ timer: time }),
          });
          const work = reqs.map(async (r) => {
            await new Promise<void>((resolve) => time.setTimeout(resolve, r.delayMs));
            const e = ENDPOINTS[r.endpoint]!;
            return client.request(
              {
                method: e.method,
                path: e.path,
                signed: e.path !== '/spot/tickers',
                body: e.method === 'POST' ? {} : undefined,
                priority: PRIORITIES[r.priority],
              },
              z.unknown(),
            );
          });
          await time.run(Promise.all(work), 24 * 3_600_000);
          expect(ex.arrivals.filter((a) => a.status === 429)).toEqual([]);
          expect(ex.arrivals).toHaveLength(reqs.length);
        },
      ),
      { numRuns: 25 },
    );
  });
});
