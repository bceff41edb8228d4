import type { QueryClient } from '@tanstack/react-query';
import type { Desk } from '../../desk/DeskProvider.tsx';
import { deskQuery } from '../../desk/queryOptions.ts';
import { overviewCurrency } from './firstReads.ts';

/**
 * A start opens on the Overview: its last known total and the exchange's are asked for while the page's
 * code still loads, so that the first render already has the figures to paint (docs/performance.md §Opening the desk). The window's
 * first script sent the local ones already (firstReads.ts); these calls take their answers. Another page
 * in the address asks nothing here. The page's own code is loaded beside them (app/openingPage.ts).
 * Answers when the profile and both totals are in (null when nothing was asked).
 */
export function prefetchOverview(qc: QueryClient, desk: Desk, hash: string): Promise<unknown> | null {
  const currency = overviewCurrency(hash);
  if (currency === null) return null;
  return Promise.all([
    // The page is drawn only once the profile is known (app/KeyedPage.tsx): it is asked first, not after the shell renders.
    prefetchProfile(qc, desk),
    qc.prefetchQuery(deskQuery(desk, 'lastKnown', { channel: 'totalBalance', request: { currency } })),
    qc.prefetchQuery(deskQuery(desk, 'totalBalance', { currency })),
  ]);
}

/** The active profile, which every page that reads the exchange waits for before it draws (app/KeyedPage.tsx). */
export function prefetchProfile(qc: QueryClient, desk: Desk): Promise<void> {
  return qc.prefetchQuery(deskQuery(desk, 'profileCurrent', {}));
}
