// The balances feature as other features see it: the Overview's balances section. Its pages are loaded by
// the shell's routes (app/routes.ts); re-exported here, they would ride along with the Overview's first
// paint.
export { OverviewBalances } from './OverviewBalances.tsx';
export { useAutoRefreshMs } from './hooks.ts';
