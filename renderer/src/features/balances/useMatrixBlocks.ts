import { keepPreviousData, useQueries } from '@tanstack/react-query';
import type { MatrixPage, MatrixQuery, MatrixRow } from '../../../../shared/balances.ts';
import { useDesk } from '../../desk/DeskProvider.tsx';
import { deskKeys } from '../../desk/queryKeys.ts';

// The matrix comes one block of rows at a time, only for the blocks in view: the window never holds
// more than it shows (plus a block either side).

export const BLOCK = 200;
const LOADING_POLL_MS = 1000;

export interface MatrixView {
  first: MatrixPage | undefined;
  rowAt(i: number): MatrixRow | undefined;
  error: unknown;
}

export function useMatrixBlocks(query: Omit<MatrixQuery, 'offset' | 'limit'>, visible: number[]): MatrixView {
  const desk = useDesk();
  const blocks = [...new Set([0, ...visible])].sort((a, b) => a - b);
  const results = useQueries({
    queries: blocks.map((b) => {
      const request = { ...query, offset: b * BLOCK, limit: BLOCK };
      const queryFn = () =>
        desk.call('balancesMatrix', request).then((page) => {
          // The benchmark's start line: a complete matrix reached the window (bench/ui/subaccounts.ts).
          if (b === 0 && page.status.state === 'ready') performance.mark('subaccounts:data', { detail: { source: page.status.source } });
          return page;
        });
      return {
        queryKey: deskKeys.balancesMatrix.of(request),
        queryFn,
        placeholderData: keepPreviousData,
        // A load ends with a balancesProgress event (desk/hooks.ts); a window whose event stream connected after
        // that event left would show "Loading" for ever (seen in a loaded CI run): while the core answers
        // that it is loading, or shows cached figures while the exchange is read, ask again each second.
        refetchInterval: (q: { state: { data?: MatrixPage } }) => {
          const status = q.state.data?.status;
          const waiting = status?.state === 'loading' || status?.state === 'empty' || (status?.source === 'cache' && !status.error);
          return waiting ? LOADING_POLL_MS : false;
        },
      };
    }),
  });
  const byBlock = new Map<number, MatrixPage>();
  results.forEach((r, i) => {
    if (r.data) byBlock.set(blocks[i]!, r.data);
  });
  return {
    first: byBlock.get(0),
    rowAt: (i) => {
      const page = byBlock.get(Math.floor(i / BLOCK));
      return page && page.offset === Math.floor(i / BLOCK) * BLOCK ? page.rows[i - page.offset] : undefined;
    },
    error: results.find((r) => r.error)?.error ?? null,
  };
}
