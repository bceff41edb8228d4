import { useInfiniteQuery, keepPreviousData } from '@tanstack/react-query';
import type { HistoryFilters, HistoryKind, HistorySort } from '../../../../shared/history.ts';
import { useDesk } from '../../desk/DeskProvider.tsx';
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
  const desk = useDesk();
  const channel = LIST_CHANNEL[kind] as 'withdrawalsList';
  return useInfiniteQuery({
    queryKey: deskKeys[channel].of({ filters, sort }),
    queryFn: ({ pageParam }): Promise<AnyPage> =>
      desk.call(channel, { filters, sort, ...(pageParam ? { cursor: pageParam, limit: PAGE_SIZE } : { limit: FIRST_PAGE }) }),
    initialPageParam: undefined as string | undefined,
    getNextPageParam: (last: AnyPage) => last.next_cursor ?? undefined,
    placeholderData: keepPreviousData,
    // The `history` event says when the cache moved: a page shown again reads what is held.
    staleTime: staleTimeOf(channel),
    // Pages are never edited in place: comparing 100,000 rows deeply on every new page would stall scrolling.
    structuralSharing: false,
  });
}

export function useHistoryStatus() {
  return useDeskQuery('historyStatus', {});
}
