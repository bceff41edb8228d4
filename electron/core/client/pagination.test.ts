import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { ApiClient } from './client.ts';
import { flatten, pagesByOffset } from './pagination.ts';
import { HistoryExchange } from '../sync/testkit/historyExchange.ts';

const DAY = 86_400;
const NOW = 1_767_225_600; // 2026-01-01T00:00:00Z
const RANGE: Array<[string, string]> = [
  ['from', String(NOW - 20 * DAY)],
  ['to', String(NOW)],
];

async function collect<T>(it: AsyncIterable<T>): Promise<T[]> {
  const out: T[] = [];
  for await (const x of it) out.push(x);
  return out;
}

/** The real client over the stand-in exchange; `log` gets "ask <offset>" for each request and "check" for each record checked. */
function setUp(records: number, log: string[], bad?: string) {
  const ex = new HistoryExchange();
  ex.spread('withdrawals', NOW - 20 * DAY, NOW, records);
  const client = new ApiClient({
    baseUrl: 'https://exchange.test/api/v4',
    credentials: { key: 'k', secret: 's' },
    fetch: ((input: string | URL) => {
      log.push(`ask ${new URL(String(input)).searchParams.get('offset')}`);
      return ex.fetch(input);
    }) as typeof fetch,
    limitsOff: true,
  });
  const record = z.looseObject({
    id: z.string().refine((id) => {
      log.push('check');
      return id !== bad;
    }),
  });
  return { ex, client, record };
}

describe('pages by offset', () => {
  it('asks for the next page while the records of a full one are still being checked, and no page more', async () => {
    const log: string[] = [];
    const { ex, client, record } = setUp(2500, log);
    const rows = await collect(flatten(pagesByOffset(client, { path: '/wallet/withdrawals', record, query: RANGE, limit: 1000 })));
    expect(rows).toHaveLength(2500);
    expect(new Set(rows.map((r) => r.id)).size).toBe(2500);
    expect(ex.requests()).toBe(3);
    for (const offset of [1000, 2000]) {
      const checkedBefore = log.slice(0, log.indexOf(`ask ${offset}`)).filter((x) => x === 'check').length;
      // The page before this one had 1,000 records; asked for after all of them were checked, this would be offset + 0.
      expect(checkedBefore, `records checked before offset ${offset} was asked for`).toBeLessThan(offset);
    }
  });

  it('asks for no further page once its reader has stopped', async () => {
    const log: string[] = [];
    const { ex, client, record } = setUp(5000, log);
    for await (const rows of pagesByOffset(client, { path: '/wallet/withdrawals', record, query: RANGE, limit: 1000 })) {
      expect(rows).toHaveLength(1000);
      break;
    }
    await new Promise((r) => setTimeout(r, 50));
    // The first page, and at most the one asked for while it was being checked.
    expect(ex.requests()).toBeLessThanOrEqual(2);
  });

  it('stops at a full page refused for a malformed record, with at most the next page asked for', async () => {
    const log: string[] = [];
    const { ex, client, record } = setUp(5000, log, 'w4500');
    const read = collect(pagesByOffset(client, { path: '/wallet/withdrawals', record, query: RANGE, limit: 1000 }));
    await expect(read).rejects.toThrow(/w4500/);
    await new Promise((r) => setTimeout(r, 50));
    expect(ex.requests()).toBeLessThanOrEqual(2);
  });
});
