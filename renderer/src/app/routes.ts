import type { ComponentType } from 'react';

// The one list of pages: the sidebar, the router and the tests read it. A page joins the list when
// its issue lands, so the sidebar never offers an empty screen.

export interface PageRoute {
  /** The address after `#/`; the accessible name of its sidebar link is the title. */
  readonly path: string;
  readonly title: string;
  /** Loaded on first visit: each page is its own chunk. */
  readonly load: () => Promise<{ default: ComponentType }>;
}

export const PAGES = [
  { path: 'overview', title: 'Overview', load: () => import('../features/overview/OverviewPage.tsx') },
  { path: 'sub-accounts', title: 'Sub-accounts', load: () => import('../features/balances/SubAccountsRoute.tsx') },
  {
    path: 'withdrawals',
    title: 'Withdrawals',
    load: () => import('../features/history/index.ts').then((m) => ({ default: m.WithdrawalsPage })),
  },
  { path: 'deposits', title: 'Deposits', load: () => import('../features/history/index.ts').then((m) => ({ default: m.DepositsPage })) },
  { path: 'transfers', title: 'Transfers', load: () => import('../features/history/index.ts').then((m) => ({ default: m.TransfersPage })) },
  { path: 'orders', title: 'Orders', load: () => import('../features/orders/OrdersPage.tsx') },
  { path: 'payouts', title: 'Payouts', load: () => import('../features/payouts/PayoutsPage.tsx') },
  { path: 'rebalance', title: 'Rebalance', load: () => import('../features/rebalance/RebalancePage.tsx') },
  { path: 'approvals', title: 'Approvals', load: () => import('../features/approvals/ApprovalsPage.tsx') },
  { path: 'journal', title: 'Journal', load: () => import('../features/journal/JournalPage.tsx') },
  { path: 'activity', title: 'Activity', load: () => import('../features/activity/ActivityPage.tsx') },
  { path: 'settings', title: 'Settings', load: () => import('../features/settings/SettingsPage.tsx') },
] as const satisfies readonly PageRoute[];

export type PagePath = (typeof PAGES)[number]['path'];

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
  rebalance: Record<string, never>;
  approvals: Record<string, never>;
  journal: Record<string, never>;
  activity: { show?: 'all' | 'unfinished' };
  settings: Record<string, never>;
}

/** The router path of a page with its parameters (`/overview?currency=BTC`, shown as `#/overview?currency=BTC`). */
export function pagePath<P extends PagePath>(path: P, search?: PageSearch[P]): string {
  const entries = Object.entries(search ?? {}).filter(([, v]) => v !== undefined) as [string, string][];
  const query = entries.length ? `?${new URLSearchParams(entries).toString()}` : '';
  return `/${path}${query}`;
}

export const DEFAULT_PAGE: PagePath = 'overview';
