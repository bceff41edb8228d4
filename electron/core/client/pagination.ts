import type { z } from 'zod';
import type { ApiRequest, ListAnswer, ListOptions, Priority } from './client.ts';
import type { QueryPairs } from './sign.ts';
import { AnswerShapeError } from '../errors.ts';

// §8.1: two pagination styles, both read until a page comes back shorter than `limit`. A full last
// page therefore costs one more (empty) request: n records take floor(n / limit) + 1 requests, which is
// the least any client can do without knowing n. Callers always ask for the endpoint's maximum limit.
//
// The next page is asked for as soon as this one is known to be full, while its records are still being
// checked: a page of 1,000 withdrawals is checked in ~5-20 ms (longer while the code is cold), time the
// exchange spends answering the next one. It asks for no page more than a reader waiting for the check
// would, except when a full page is then refused for a malformed record or the reader stops after it
// (the next answer then goes unread).

/** What the readers need of a client (an ApiClient): one checked request, or one list checked record by record. */
export interface RecordReader {
  request<S extends z.ZodType>(req: ApiRequest, schema: S): Promise<z.output<S>>;
  requestList<S extends z.ZodType>(req: ApiRequest, record: S, opts?: ListOptions): Promise<ListAnswer<z.output<S>>>;
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

function page<S extends z.ZodType>(
  client: RecordReader,
  read: PagedRead<S>,
  extra: QueryPairs,
  onSent: (sent: number) => void,
): Promise<Page<z.output<S>>> {
  const req: ApiRequest = {
    method: 'GET',
    path: read.path,
    query: [...(read.query ?? []), ['limit', String(read.limit)], ...extra],
    priority: read.priority ?? 'visible',
  };
  return client.requestList(req, read.record, { onSent }).then((answer) => {
    // Told again here: a reader that takes no options (a wrapper that drops them) said nothing early.
    onSent(answer.sent);
    return { rows: read.partial ? answer.records : everyRecord(answer), sent: answer.sent };
  });
}

interface Page<T> {
  rows: T[];
  sent: number;
}

/**
 * Pages 0, 1, … (`at` makes each one's query) until one comes back short. The page after the one the
 * reader waits for is asked for as soon as that one is known to be full: never more than one ahead.
 */
async function* pages<S extends z.ZodType>(
  client: RecordReader,
  read: PagedRead<S>,
  at: (n: number) => QueryPairs,
): AsyncGenerator<Array<z.output<S>>> {
  const asked: Array<Promise<Page<z.output<S>>>> = [];
  const sentOf: number[] = [];
  let waitingFor = 0;
  let stopped = false;
  const ask = (n: number): void => {
    if (stopped || asked[n]) return;
    const p = page(client, read, at(n), (sent) => {
      sentOf[n] = sent;
      if (n === waitingFor && sent >= read.limit) ask(n + 1);
    });
    // Awaited below in order; until then (or when the reader stops first) a failure must not count as unhandled.
    p.catch(() => undefined);
    asked[n] = p;
  };
  try {
    for (let n = 0; ; n++) {
      waitingFor = n;
      ask(n);
      if ((sentOf[n] ?? 0) >= read.limit) ask(n + 1);
      const { rows, sent } = await asked[n]!;
      yield rows;
      if (sent < read.limit) return;
    }
  } finally {
    stopped = true;
  }
}

/** limit-offset style (`offset` from 0). */
export function pagesByOffset<S extends z.ZodType>(client: RecordReader, read: PagedRead<S>): AsyncGenerator<Array<z.output<S>>> {
  return pages(client, read, (n) => [['offset', String(n * read.limit)]]);
}

/** page-limit style (`page` from 1). */
export function pagesByNumber<S extends z.ZodType>(client: RecordReader, read: PagedRead<S>): AsyncGenerator<Array<z.output<S>>> {
  return pages(client, read, (n) => [['page', String(n + 1)]]);
}

export async function* flatten<T>(pages: AsyncIterable<T[]>): AsyncGenerator<T> {
  for await (const rows of pages) yield* rows;
}
