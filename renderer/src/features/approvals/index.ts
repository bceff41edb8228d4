// The approvals feature as other features see it: the review step and signing hand-off every write
// form uses, the verdict table, and the panel that sends approved withdrawals.
export { RequestOutcome } from './RequestOutcome.tsx';
export { ReviewStep } from './ReviewStep.tsx';
export { SendForSigning } from './SendForSigning.tsx';
export { SendPanel } from './SendPanel.tsx';
export { VerdictTable } from './Verdict.tsx';
