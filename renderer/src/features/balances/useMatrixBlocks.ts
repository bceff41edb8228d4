import { keepPreviousData, useQueries } from '@tanstack/react-query';
import type { MatrixPage, MatrixRow } from '../../../../shared/balances.ts';
import { useDesk } from '../../desk/DeskProvider.tsx';
import { BLOCK, LOADING_POLL, matrixBlockQuery, stillLoading, type MatrixView } from './matrixQuery.ts';

// The matrix comes one block of rows at a time, only for the blocks in view: the window never holds
// more than it shows (plus a block either side).

export { BLOCK };

export interface MatrixBlocks {
  first: MatrixPage | undefined;
  rowAt(i: number): MatrixRow | undefined;
  error: unknown;
}

export function useMatrixBlocks(query: MatrixView, visible: number[]): MatrixBlocks {
  const desk = useDesk();
  const blocks = [...new Set([0, ...visible])].sort((a, b) => a - b);
  const results = useQueries({
    queries: blocks.map((b) => ({
      ...matrixBlockQuery(desk, query, b),
      placeholderData: keepPreviousData,
      // A load ends with a balancesProgress event (desk/hooks.ts); a window whose event stream connected after that event left
      // would show "Loading" (or the cached figures) for ever (seen in a loaded CI run): while the core answers that it is
      // loading, ask again each second.
      refetchInterval: (q: { state: { data?: MatrixPage } }) => (stillLoading(q.state.data) ? LOADING_POLL : false),
    })),
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
