// The pages' addresses and the parameters each reads, apart from the route table: pages link to each
// other through pagePath, and the route table loads the pages, so keeping both in one module made a circle.

/** Query parameters each page reads from the address, so that back, forward and reload keep the view. */
export interface PageSearch {
  overview: { currency?: string };
  'sub-accounts': Record<string, never>;
  withdrawals: { currency?: string; status?: string; chain?: string; search?: string };
  deposits: Record<string, never>;
  /** `new` opens a transfer form of that kind, `sub` pre-fills its sub-account (the matrix's "Transfer…"). */
  transfers: { new?: 'own' | 'main_sub' | 'sub_to_sub' | 'sub_own'; sub?: string };
  orders: { pair?: string; sub?: string };
  payouts: { batch?: string };
  /** `batch` shows one conversion batch's progress. */
  'small-balances': { batch?: string };
  rebalance: Record<string, never>;
  approvals: Record<string, never>;
  journal: Record<string, never>;
  statements: Record<string, never>;
  /** `intent` marks one write's row (a page's link to the record of what it drafted). */
  activity: { show?: 'all' | 'unfinished'; intent?: string };
  settings: Record<string, never>;
}

/** The page addresses: one key per page of the route table (routes.ts checks that each has its route). */
export type PagePath = keyof PageSearch;

/** The router path of a page with its parameters (`/overview?currency=BTC`, shown as `#/overview?currency=BTC`). */
export function pagePath<P extends PagePath>(path: P, search?: PageSearch[P]): string {
  const entries = Object.entries(search ?? {}).filter(([, v]) => v !== undefined) as [string, string][];
  const query = entries.length ? `?${new URLSearchParams(entries).toString()}` : '';
  return `/${path}${query}`;
}
