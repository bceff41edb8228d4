import { z } from 'zod';
import type { ApiRequest, Priority } from '../client/client.ts';
import type { QueryPairs } from '../client/sign.ts';

// §8.1: two pagination styles, both read until a page comes back shorter than `limit`. A full last
// page therefore costs one more (empty) request: n records take floor(n / limit) + 1 requests, which is
// the least any client can do without knowing n. Callers always ask for the endpoint's maximum limit.

/**
 * What the readers need of a client: one checked request. The core hands them its signed call, which
 * also corrects the profile's permissions from a refusal; tests and benches hand them an ApiClient.
 */
export interface RecordReader {
  request<S extends z.ZodType>(req: ApiRequest, schema: S): Promise<z.output<S>>;
}

export interface PagedRead<S extends z.ZodType> {
  path: string;
  /** The schema of one record of the list. */
  record: S;
  query?: QueryPairs;
  limit: number;
  priority?: Priority;
}

function page<S extends z.ZodType>(client: RecordReader, read: PagedRead<S>, extra: QueryPairs): Promise<Array<z.output<S>>> {
  return client.request(
    {
      method: 'GET',
      path: read.path,
      query: [...(read.query ?? []), ['limit', String(read.limit)], ...extra],
      priority: read.priority ?? 'visible',
    },
    z.array(read.record),
  );
}

/** limit-offset style (`offset` from 0). */
export async function* pagesByOffset<S extends z.ZodType>(client: RecordReader, read: PagedRead<S>): AsyncGenerator<Array<z.output<S>>> {
  for (let offset = 0; ; offset += read.limit) {
    const rows = await page(client, read, [['offset', String(offset)]]);
    yield rows;
    if (rows.length < read.limit) return;
  }
}

/** page-limit style (`page` from 1). */
export async function* pagesByNumber<S extends z.ZodType>(client: RecordReader, read: PagedRead<S>): AsyncGenerator<Array<z.output<S>>> {
  for (let n = 1; ; n++) {
    const rows = await page(client, read, [['page', String(n)]]);
    yield rows;
    if (rows.length < read.limit) return;
  }
}

export async function* flatten<T>(pages: AsyncIterable<T[]>): AsyncGenerator<T> {
  for await (const rows of pages) yield* rows;
}
