import type { MatrixQuery } from '../../../../shared/balances.ts';
import type { EarlyRead } from '../../desk/earlyReads.ts';

// What a start on the matrix reads first. Schema-free and React-free: the window's first script
// (renderer/src/opening.ts) imports it, and everything it imports is fetched and run before the first read.

/** Rows a block of the matrix holds: what the page asks at a time. */
export const BLOCK = 100;

export type MatrixView = Omit<MatrixQuery, 'offset' | 'limit'>;

/** What the page shows when it opens: every row, valued in USDT, by uid. */
export const FIRST_VIEW = { quote: 'USDT', search: '', sort: 'uid', desc: false, hide_below: null } as const satisfies MatrixView;

/** Block `block` of a view of the matrix, as the page asks it (the same request, so an early answer is taken). */
export const blockRequest = (view: MatrixView, block: number): MatrixQuery => ({ ...view, offset: block * BLOCK, limit: BLOCK });

/** A start on #/sub-accounts: the window asks for the matrix's first block. */
export const opensOnMatrix = (hash: string): boolean => /^#\/?sub-accounts$/.test(hash);

/**
 * The reads the matrix's first paint waits for, which the core answers from the desk's own files before
 * its start-up (electron/core/startUp.ts): the profile (the page is drawn only once it is known,
 * app/KeyedPage.tsx) and the first block from the last complete load.
 */
export function matrixEarlyReads(hash: string): EarlyRead[] {
  if (!opensOnMatrix(hash)) return [];
  return [
    ['profileCurrent', {}],
    ['balancesMatrix', blockRequest(FIRST_VIEW, 0)],
  ];
}
