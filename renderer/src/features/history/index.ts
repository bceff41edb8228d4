import './history.css';
// The history feature as the shell sees it: its pages, the in-flight count, and the hooks that keep
// the history queries current and turn `notify` events into browser notifications.
export { DepositsPage } from './DepositsPage.tsx';
export { InFlightCount } from './InFlightCount.tsx';
export { useHistoryEvents } from './queries.ts';
export { TransfersPage } from './TransfersPage.tsx';
export { useBrowserNotifications } from './useNotifications.ts';
export { WithdrawalsPage } from './WithdrawalsPage.tsx';
