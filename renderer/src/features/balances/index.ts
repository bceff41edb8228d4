// The balances feature as the shell sees it: its pages, its Overview section and its addresses.
export { OverviewBalances } from './OverviewBalances.tsx';
export { SubAccountsPage } from './SubAccountsPage.tsx';
export { SubAccountDetail } from './SubAccountDetail.tsx';
export { isSubAccountsHash, SUB_ACCOUNTS_ROUTE, useSubAccountUid } from './route.ts';
export { useAutoRefreshMs } from './hooks.ts';
