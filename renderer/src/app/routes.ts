import type { ComponentType } from 'react';
import type { PagePath } from './paths.ts';

// The one list of pages: the sidebar, the router and the tests read it. A page joins the list when
// its issue lands, so the sidebar never offers an empty screen.

export interface PageRoute {
  /** The address after `#/`; the accessible name of its sidebar link is the title. */
  readonly path: PagePath;
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
    // Its own chunk, without the other histories' forms and QR codes: the page an operator opens most.
    load: () => import('../features/history/WithdrawalsPage.tsx').then((m) => ({ default: m.WithdrawalsPage })),
  },
  { path: 'deposits', title: 'Deposits', load: () => import('../features/history/index.ts').then((m) => ({ default: m.DepositsPage })) },
  { path: 'transfers', title: 'Transfers', load: () => import('../features/history/index.ts').then((m) => ({ default: m.TransfersPage })) },
  { path: 'orders', title: 'Orders', load: () => import('../features/orders/OrdersPage.tsx') },
  { path: 'payouts', title: 'Payouts', load: () => import('../features/payouts/PayoutsPage.tsx') },
  { path: 'small-balances', title: 'Small balances', load: () => import('../features/smallBalances/SmallBalancesPage.tsx') },
  { path: 'rebalance', title: 'Rebalance', load: () => import('../features/rebalance/RebalancePage.tsx') },
  { path: 'approvals', title: 'Approvals', load: () => import('../features/approvals/ApprovalsPage.tsx') },
  { path: 'statements', title: 'Statements', load: () => import('../features/statements/StatementsPage.tsx') },
  { path: 'journal', title: 'Journal', load: () => import('../features/journal/JournalPage.tsx') },
  { path: 'activity', title: 'Activity', load: () => import('../features/activity/ActivityPage.tsx') },
  { path: 'settings', title: 'Settings', load: () => import('../features/settings/SettingsPage.tsx') },
] as const satisfies readonly PageRoute[];

/** Every page of PageSearch has its route: a page missing here fails the typecheck. */
const everyPageRouted: Record<Exclude<PagePath, (typeof PAGES)[number]['path']>, never> = {};
void everyPageRouted;

export const DEFAULT_PAGE: PagePath = 'overview';
