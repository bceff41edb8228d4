// The approvals feature as other features see it: the review step and signing hand-off every write
// form uses and the verdict table (the send panel, drawn before any schema loads, is in panels.ts).
export { RequestOutcome } from './RequestOutcome.tsx';
export { ReviewStep } from './ReviewStep.tsx';
export { SendForSigning } from './SendForSigning.tsx';
export { VerdictTable } from './Verdict.tsx';
