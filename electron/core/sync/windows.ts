import type { z } from 'zod';
import { Deposit, SubAccountTransfer, UidTransfer, Withdrawal } from '../../../shared/api/records.ts';
import type { Priority } from '../client/client.ts';
import type { QueryPairs } from '../client/sign.ts';
import { pagesByOffset, type RecordReader } from '../client/pagination.ts';

// §8.1 / §4.1: withdrawals, deposits and sub-account transfers are read by time range, at most 30 days
// per request (the default range is only 7 days, so `from` and `to` are always sent).

export const MAX_RANGE_SEC = 30 * 86_400;

/**
 * The lists read by time range, with the schema of one record of each. GET /wallet/push (§4.1) states
 * no 30-day cap, but reading it in the same windows costs nothing extra and keeps one code path.
 */
export const WINDOWED = {
  '/wallet/withdrawals': Withdrawal,
  '/wallet/deposits': Deposit,
  '/wallet/sub_account_transfers': SubAccountTransfer,
  '/wallet/push': UidTransfer,
} as const;
export type WindowedPath = keyof typeof WINDOWED;
export type WindowedRecord<P extends WindowedPath> = z.output<(typeof WINDOWED)[P]>;

/** The largest `limit` each endpoint accepts (§8.1: deposits at most 500, others the default maximum 1000). */
export const MAX_LIMIT: Record<WindowedPath, number> = {
  '/wallet/withdrawals': 1000,
  '/wallet/deposits': 500,
  '/wallet/sub_account_transfers': 1000,
  '/wallet/push': 1000,
};

export interface TimeWindow {
  from: number;
  to: number;
}

/**
 * Splits [from, to] (Unix seconds) into the fewest windows of at most 30 days, oldest first. Neighbours
 * share their boundary second, since the spec does not say whether `to` is inclusive; a record on the
 * boundary may then come twice and is dropped the second time by its key.
 */
export function thirtyDayWindows(from: number, to: number, span = MAX_RANGE_SEC): TimeWindow[] {
  const out: TimeWindow[] = [];
  const start = Math.floor(from);
  const end = Math.ceil(to);
  if (end <= start) return [{ from: start, to: start }];
  for (let a = start; a < end; a += span) out.push({ from: a, to: Math.min(a + span, end) });
  return out;
}

export interface WindowedRead<P extends WindowedPath> {
  path: P;
  from: number;
  to: number;
  query?: QueryPairs;
  /** Defaults to the endpoint's maximum. */
  limit?: number;
  priority?: Priority;
  /** Windows read at the same time (each window's pages stay in order). Default 4. */
  concurrency?: number;
  /** Identity of a record, to drop repeats (default: its `id`, or the whole record when it has none). */
  key?: (r: WindowedRecord<P>) => string;
}

function defaultKey(r: unknown): string {
  const id = (r as { id?: unknown })?.id;
  return typeof id === 'string' || typeof id === 'number' ? String(id) : JSON.stringify(r);
}

/** Every record of one window, page by page. */
export async function readWindow<P extends WindowedPath>(
  client: RecordReader,
  read: WindowedRead<P>,
  w: TimeWindow,
): Promise<Array<WindowedRecord<P>>> {
  const rows: Array<WindowedRecord<P>> = [];
  const query: QueryPairs = [...(read.query ?? []), ['from', String(w.from)], ['to', String(w.to)]];
  const pages = pagesByOffset(client, {
    path: read.path,
    record: WINDOWED[read.path],
    query,
    limit: read.limit ?? MAX_LIMIT[read.path],
    priority: read.priority,
    // A history keeps every record that reads; the ones set aside are counted where the desk shows them.
    partial: true,
  });
  // The generic index loses the record type that WINDOWED[path] has for each concrete path.
  for await (const page of pages) rows.push(...(page as Array<WindowedRecord<P>>));
  return rows;
}

/**
 * Every record of [from, to], window by window, oldest window first. Several windows are read at once
 * (their requests still pass the scheduler); records of one window come out together, in the
 * exchange's order.
 */
export async function* windowedRecords<P extends WindowedPath>(
  client: RecordReader,
  read: WindowedRead<P>,
): AsyncGenerator<WindowedRecord<P>> {
  const windows = thirtyDayWindows(read.from, read.to);
  const key = read.key ?? defaultKey;
  const concurrency = Math.max(1, read.concurrency ?? 4);
  const tasks: Array<Promise<Array<WindowedRecord<P>>>> = [];
  const start = (i: number): void => {
    if (i >= windows.length) return;
    const t = readWindow(client, read, windows[i]!);
    // Awaited below in order; until then a failure must not count as unhandled.
    t.catch(() => undefined);
    tasks[i] = t;
  };
  for (let i = 0; i < concurrency; i++) start(i);
  const seen = new Set<string>();
  for (let i = 0; i < windows.length; i++) {
    const rows = await tasks[i]!;
    start(i + concurrency);
    for (const r of rows) {
      const k = key(r);
      if (seen.has(k)) continue;
      seen.add(k);
      yield r;
    }
  }
}
