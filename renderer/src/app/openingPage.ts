import type { ComponentType } from 'react';
import { opensOnMatrix } from '../features/balances/firstReads.ts';
import { overviewCurrency } from '../features/overview/firstReads.ts';
import type { PagePath } from './paths.ts';

/**
 * The code of the page a start opens on, for the router's first render (router.tsx, `loaded`): the Overview
 * (named in index.html) and the matrix (asked by the window's first script, opening.ts) are drawn with
 * the figures already asked, instead of the shell alone, a lazy load of code that is already here, and a
 * second render (docs/performance.md §Opening the desk). Should the code not load, nothing is handed over and the route's own lazy
 * load meets (and shows) the error.
 */
export function openingPage(hash: string): Promise<Partial<Record<PagePath, ComponentType>>> {
  if (overviewCurrency(hash) !== null)
    return import('../features/overview/OverviewPage.tsx').then(
      (m) => ({ overview: m.default }),
      () => ({}),
    );
  if (opensOnMatrix(hash))
    return import('../features/balances/SubAccountsRoute.tsx').then(
      (m) => ({ 'sub-accounts': m.default }),
      () => ({}),
    );
  return Promise.resolve({});
}
