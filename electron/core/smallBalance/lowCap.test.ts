import { describe, expect, it } from 'vitest';
import type { z } from 'zod';
import type { HttpRequest, WriteClient } from '../writes/lookups.ts';
import { LOW_CAP_TTL_MS, LowCapCache } from './service.ts';

// §4.1 getLowCapExchangeList changes rarely: read once per profile, again once the copy is old, and a
// failed read keeps the copy the desk has rather than dropping every flag.
describe('the low-cap list cache', () => {
  it('reads once, again after its time, and keeps the last list when a read fails', async () => {
    const clock = { now: 1_000_000 };
    const answers: Array<string[] | Error> = [['PEPEX', 'MOONC'], new Error('the exchange did not answer'), ['PEPEX']];
    let reads = 0;
    const client: WriteClient = {
      request: async <S extends z.ZodType>(req: HttpRequest, schema: S) => {
        expect(req).toMatchObject({ method: 'GET', path: '/wallet/getLowCapExchangeList' });
        reads += 1;
        const a = answers.shift()!;
        if (a instanceof Error) throw a;
        return schema.parse(a) as z.output<S>;
      },
    };
    const cache = new LowCapCache(() => clock.now);
    expect(await cache.get('p1', client)).toEqual({ currencies: ['MOONC', 'PEPEX'], fetched_at: 1_000_000 });
    clock.now += LOW_CAP_TTL_MS - 1;
    expect((await cache.get('p1', client)).currencies).toEqual(['MOONC', 'PEPEX']);
    expect(reads).toBe(1);
    clock.now += 1;
    expect(await cache.get('p1', client)).toEqual({ currencies: ['MOONC', 'PEPEX'], fetched_at: 1_000_000 });
    expect(reads).toBe(2);
    expect((await cache.get('p1', client)).currencies).toEqual(['PEPEX']);
    expect(reads).toBe(3);
    // Another profile's list is its own: with no copy yet, a failed read is said.
    answers.push(new Error('the exchange did not answer'));
    await expect(cache.get('p2', client)).rejects.toThrow('the exchange did not answer');
  });
});
