import { useInfiniteQuery, useQuery, useQueryClient, keepPreviousData } from '@tanstack/react-query';
import { useEffect } from 'react';
import type { HistoryFilters, HistoryKind, HistorySort } from '../../../../shared/history.ts';
import { call, deskApi } from '../../desk/desk.ts';

// Query keys for the history channels, one factory, so that the `history` event makes stale only the
// history queries (lists, counts, flags, details) and nothing else.

export const LIST_CHANNEL = {
  withdrawals: 'withdrawalsList',
  deposits: 'depositsList',
  transfers: 'transfersList',
  uid_transfers: 'uidTransfersList',
} as const;

export const historyKeys = {
  all: ['history'] as const,
  list: (kind: HistoryKind, filters: HistoryFilters, sort: HistorySort) => ['history', 'list', kind, filters, sort] as const,
  status: ['history', 'status'] as const,
  unsent: ['history', 'unsent'] as const,
  detail: (id: string) => ['history', 'detail', id] as const,
};

/** The first page is small so that the list paints at once; the rest come in larger pages as the view nears them. */
export const FIRST_PAGE = 100;
export const PAGE_SIZE = 300;

/** Every list channel takes the same request and answers {total, rows, next_cursor}; rows differ by kind. */
interface AnyPage {
  total: number;
  rows: unknown[];
  next_cursor: string | null;
}

/** One list, a page at a time by keyset cursor; pages load as the operator scrolls towards them. */
export function useHistoryPages(kind: HistoryKind, filters: HistoryFilters, sort: HistorySort) {
  return useInfiniteQuery({
    queryKey: historyKeys.list(kind, filters, sort),
    queryFn: ({ pageParam }): Promise<AnyPage> =>
      call(LIST_CHANNEL[kind] as 'withdrawalsList', { filters, sort, ...(pageParam ? { cursor: pageParam, limit: PAGE_SIZE } : { limit: FIRST_PAGE }) }),
    initialPageParam: undefined as string | undefined,
    getNextPageParam: (last: AnyPage) => last.next_cursor ?? undefined,
    placeholderData: keepPreviousData,
    // Pages are never edited in place: comparing 100,000 rows deeply on every new page would stall scrolling.
    structuralSharing: false,
  });
}

export function useHistoryStatus() {
  return useQuery({ queryKey: historyKeys.status, queryFn: () => call('historyStatus', {}) });
}

/** The `history` event invalidates the history queries, and only those. */
export function useHistoryEvents(): void {
  const qc = useQueryClient();
  useEffect(() => deskApi()?.on('history', () => void qc.invalidateQueries({ queryKey: historyKeys.all })), [qc]);
}
