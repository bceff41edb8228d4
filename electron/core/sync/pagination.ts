import type { ApiClient, Priority } from '../client/client.ts';
import { NetworkError } from '../client/errors.ts';
import type { QueryPairs } from '../client/sign.ts';

// §8.1: two pagination styles, both read until a page comes back shorter than `limit`. A full last
// page therefore costs one more (empty) request: n records take floor(n / limit) + 1 requests, which is
// the least any client can do without knowing n. Callers always ask for the endpoint's maximum limit.

export interface PagedRead {
  path: string;
  query?: QueryPairs;
  limit: number;
  priority?: Priority;
}

async function page<T>(client: ApiClient, read: PagedRead, extra: QueryPairs): Promise<T[]> {
  const rows = await client.request<unknown>({
    method: 'GET',
    path: read.path,
    query: [...(read.query ?? []), ['limit', String(read.limit)], ...extra],
    priority: read.priority ?? 'visible',
  });
  if (!Array.isArray(rows)) throw new NetworkError(`${client.origin} answered GET ${read.path} with something other than a list`);
  return rows as T[];
}

/** limit-offset style (`offset` from 0). */
export async function* pagesByOffset<T>(client: ApiClient, read: PagedRead): AsyncGenerator<T[]> {
  for (let offset = 0; ; offset += read.limit) {
    const rows = await page<T>(client, read, [['offset', String(offset)]]);
    yield rows;
    if (rows.length < read.limit) return;
  }
}

/** page-limit style (`page` from 1). */
export async function* pagesByNumber<T>(client: ApiClient, read: PagedRead): AsyncGenerator<T[]> {
  for (let n = 1; ; n++) {
    const rows = await page<T>(client, read, [['page', String(n)]]);
    yield rows;
    if (rows.length < read.limit) return;
  }
}

export async function* flatten<T>(pages: AsyncIterable<T[]>): AsyncGenerator<T> {
  for await (const rows of pages) yield* rows;
}
