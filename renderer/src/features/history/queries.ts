import { useQueries, useQueryClient, type QueryClient } from '@tanstack/react-query';
import { useCallback, useRef } from 'react';
import type { HistoryFilters, HistoryKind, HistorySort } from '../../../../shared/history.ts';
import { useDesk, type Desk } from '../../desk/DeskProvider.tsx';
import { useDeskQuery } from '../../desk/hooks.ts';
import { staleTimeOf } from '../../desk/queryOptions.ts';
import { deskKeys } from '../../desk/queryKeys.ts';

// The history lists, keyed by the desk's key factory (channel, then filters and sort): the `history`
// event makes stale only these (shared/ipcStale.ts).

export const LIST_CHANNEL = {
  withdrawals: 'withdrawalsList',
  deposits: 'depositsList',
  transfers: 'transfersList',
  uid_transfers: 'uidTransfersList',
} as const;

/** Rows are asked a page at a time, each page by its position: a view that jumps to row 60,000 asks for that page alone. */
export const PAGE_SIZE = 100;

/** Every list channel takes the same request and answers {total, rows, next_cursor}; rows differ by kind. */
export interface AnyPage {
  total: number;
  rows: unknown[];
  next_cursor: string | null;
}

export interface HistoryWindow {
  /** The pages held for the rows asked, by page number (position / PAGE_SIZE). */
  pages: ReadonlyMap<number, AnyPage>;
  /** The list's length, from its first page; 0 until that page is in. */
  total: number;
  /** The first page shown is the previous filter's or sort's while the new one loads. */
  stale: boolean;
  fetching: boolean;
  error: Error | null;
}

/** The page numbers holding rows `first` to `last`, the first page always among them (it carries the total). */
export function pagesFor(first: number, last: number): number[] {
  const pages = [0];
  for (let p = Math.max(1, Math.floor(first / PAGE_SIZE)); p <= Math.floor(last / PAGE_SIZE); p++) pages.push(p);
  return pages;
}

/** Page `n` of a list, as a query: its key and how to ask it. */
function pageQuery(desk: Desk, kind: HistoryKind, filters: HistoryFilters, sort: HistorySort, n: number) {
  const channel = LIST_CHANNEL[kind] as 'withdrawalsList';
  const request = { filters, sort, offset: n * PAGE_SIZE, limit: PAGE_SIZE };
  return {
    queryKey: deskKeys[channel].of(request),
    queryFn: (): Promise<AnyPage> => desk.call(channel, request),
    // The `history` event says when the cache moved: a page shown again reads what is held.
    staleTime: staleTimeOf(channel),
    structuralSharing: false,
  };
}

/** The order a history page opens in: newest first. */
export const FIRST_SORT: HistorySort = { by: 'time', dir: 'desc' };

/**
 * The first page of a list as its page opens it (no filter but those of the address, newest first),
 * asked from the click on the sidebar's link: the core reads it while the page's code loads (docs/performance.md §Long lists).
 */
export function prefetchFirstPage(qc: QueryClient, desk: Desk, kind: HistoryKind, filters: HistoryFilters = {}): Promise<void> {
  return qc.prefetchQuery(pageQuery(desk, kind, filters, FIRST_SORT, 0));
}

/**
 * Asks for the first page of a list under new filters or sort from the operator's input event itself,
 * before the list renders them (listedView.ts); settles once the page is in the cache, or failed.
 */
export function usePrefetchFirstPage(kind: HistoryKind): (filters: HistoryFilters, sort: HistorySort) => Promise<void> {
  const desk = useDesk();
  const qc = useQueryClient();
  return useCallback((filters, sort) => qc.prefetchQuery(pageQuery(desk, kind, filters, sort, 0)), [desk, qc, kind]);
}

/**
 * The pages of one list that hold the rows in view, each its own query asked by offset: the core's SQLite
 * picks them on its sort index, so neither a jump nor a scroll reads the pages in between, and a
 * `history` event refetches only the pages on screen.
 */
export function useHistoryWindow(
  kind: HistoryKind,
  filters: HistoryFilters,
  sort: HistorySort,
  first: number,
  last: number,
): HistoryWindow {
  const desk = useDesk();
  const numbers = pagesFor(first, last);
  // The first page last shown stands in for the first page of new filters or sort until it comes: the
  // list does not empty and fill again (two rebuilds of its rows and their layout between the filter and
  // its rows). Not keepPreviousData: useQueries makes a new observer for a new key, with no previous data.
  const shownFirst = useRef<AnyPage | undefined>(undefined);
  const results = useQueries({
    queries: numbers.map((n) => ({
      ...pageQuery(desk, kind, filters, sort, n),
      // Only the first page stands in for itself; any other page of the previous list would put its
      // rows at positions they do not hold.
      ...(n === 0 ? { placeholderData: () => shownFirst.current } : {}),
    })),
  });
  if (results[0]?.data && !results[0].isPlaceholderData) shownFirst.current = results[0].data;
  const pages = new Map<number, AnyPage>();
  results.forEach((r, i) => {
    if (r.data && (i === 0 || !r.isPlaceholderData)) pages.set(numbers[i]!, r.data);
  });
  return {
    pages,
    total: results[0]?.data?.total ?? 0,
    stale: results[0]?.isPlaceholderData ?? false,
    fetching: results.some((r) => r.isFetching),
    error: results.find((r) => r.error)?.error ?? null,
  };
}

export function useHistoryStatus() {
  return useDeskQuery('historyStatus', {});
}
