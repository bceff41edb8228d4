import type { z } from 'zod';
import type { ApiRequest, ListAnswer, Priority } from '../client/client.ts';
import type { QueryPairs } from '../client/sign.ts';
import { AnswerShapeError } from '../errors.ts';

// §8.1: two pagination styles, both read until a page comes back shorter than `limit`. A full last
// page therefore costs one more (empty) request: n records take floor(n / limit) + 1 requests, which is
// the least any client can do without knowing n. Callers always ask for the endpoint's maximum limit.

/** What the readers need of a client (an ApiClient): one checked request, or one list checked record by record. */
export interface RecordReader {
  request<S extends z.ZodType>(req: ApiRequest, schema: S): Promise<z.output<S>>;
  requestList<S extends z.ZodType>(req: ApiRequest, record: S): Promise<ListAnswer<z.output<S>>>;
}

/**
 * For a read whose every record matters (a plan that moves money must not take a sub-account it could not
 * read for an empty one): the first record set aside refuses the whole answer, naming it and its field.
 */
export function everyRecord<T>(answer: ListAnswer<T>): T[] {
  const u = answer.unread[0];
  if (u) throw new AnswerShapeError(u.endpoint, `${u.record}: ${u.field}`, u.problem, answer.origin);
  return answer.records;
}

export interface PagedRead<S extends z.ZodType> {
  path: string;
  /** The schema of one record of the list. */
  record: S;
  query?: QueryPairs;
  limit: number;
  priority?: Priority;
  /** Keep the records that read and set the others aside (a history); by default one malformed record refuses the page. */
  partial?: boolean;
}

async function page<S extends z.ZodType>(client: RecordReader, read: PagedRead<S>, extra: QueryPairs): Promise<Page<z.output<S>>> {
  const answer = await client.requestList(
    {
      method: 'GET',
      path: read.path,
      query: [...(read.query ?? []), ['limit', String(read.limit)], ...extra],
      priority: read.priority ?? 'visible',
    },
    read.record,
  );
  return { rows: read.partial ? answer.records : everyRecord(answer), sent: answer.sent };
}

interface Page<T> {
  rows: T[];
  sent: number;
}

/** limit-offset style (`offset` from 0). */
export async function* pagesByOffset<S extends z.ZodType>(client: RecordReader, read: PagedRead<S>): AsyncGenerator<Array<z.output<S>>> {
  for (let offset = 0; ; offset += read.limit) {
    const { rows, sent } = await page(client, read, [['offset', String(offset)]]);
    yield rows;
    if (sent < read.limit) return;
  }
}

/** page-limit style (`page` from 1). */
export async function* pagesByNumber<S extends z.ZodType>(client: RecordReader, read: PagedRead<S>): AsyncGenerator<Array<z.output<S>>> {
  for (let n = 1; ; n++) {
    const { rows, sent } = await page(client, read, [['page', String(n)]]);
    yield rows;
    if (sent < read.limit) return;
  }
}

export async function* flatten<T>(pages: AsyncIterable<T[]>): AsyncGenerator<T> {
  for await (const rows of pages) yield* rows;
}
