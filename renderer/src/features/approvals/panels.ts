// What other pages draw of the approvals feature before any schema is loaded: the send buttons above the
// Withdrawals list. Their forms check with zod and load when one is opened (docs/performance.md §Opening the desk). Nothing here may
// import the contract's schemas; index.ts has the rest.
export { SendPanel } from './SendPanel.tsx';
