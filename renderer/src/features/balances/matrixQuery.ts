import type { QueryClient } from '@tanstack/react-query';
import type { MatrixPage } from '../../../../shared/balances.ts';
import type { Desk } from '../../desk/DeskProvider.tsx';
import { deskKeys } from '../../desk/queryKeys.ts';
import { deskQuery } from '../../desk/queryOptions.ts';
import { BLOCK, blockRequest, FIRST_VIEW, type MatrixView } from './firstReads.ts';

// One block of the matrix as a query, the same for the page and for the ask the window makes before
// React has drawn anything: a window opened on #/sub-accounts asks its first block while the page's
// code loads and renders, so that the core's answer (at once, from its cache, on a new start) is there
// when the page mounts (docs/performance.md §Opening the desk).

const LOADING_POLL_MS = 1000;
const JUST_ASKED_MS = 1000;

export { BLOCK, FIRST_VIEW, type MatrixView };

export function matrixBlockQuery(desk: Desk, view: MatrixView, block: number) {
  const request = blockRequest(view, block);
  return {
    queryKey: deskKeys.balancesMatrix.of(request),
    // The window's first ask (askFirstBlock) answered a moment before the page mounts: not asked again then.
    // Later mounts ask again, as for every read a finished load changes (shared/ipcStale.ts).
    staleTime: JUST_ASKED_MS,
    queryFn: () =>
      desk.call('balancesMatrix', request).then((page) => {
        // The benchmark's start line: a complete matrix reached the window (bench/ui/subaccounts.ts).
        if (block === 0 && page.status.state === 'ready') performance.mark('subaccounts:data', { detail: { source: page.status.source } });
        return page;
      }),
  };
}

/** While the core loads (or shows cached figures while it reads the exchange), the page asks again each second. */
export function stillLoading(page: MatrixPage | undefined): boolean {
  const status = page?.status;
  return status?.state === 'loading' || status?.state === 'empty' || (status?.source === 'cache' && !status.error);
}

export const LOADING_POLL = LOADING_POLL_MS;

/**
 * The window's first ask, when it opens on the matrix: its first block, and the active profile, which the
 * page waits for before it draws (app/KeyedPage.tsx) and would otherwise ask only once the shell has rendered.
 */
export function askFirstBlock(qc: QueryClient, desk: Desk): Promise<unknown> {
  return Promise.all([qc.prefetchQuery(deskQuery(desk, 'profileCurrent', {})), qc.prefetchQuery(matrixBlockQuery(desk, FIRST_VIEW, 0))]);
}
