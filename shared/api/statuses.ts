// §3.1. The spec shows no transitions, so which statuses are final is the desk's written assumption:
// DONE, CANCEL and REJECT end a withdrawal; FAIL is "on-chain failure pending confirmation" and is
// watched like any other non-final status; a status not listed here is shown as it came and watched.
// Their words and tones: statusWords.ts.
export const WITHDRAWAL_STATUSES = {
  BCODE: 'Deposit-code operation',
  CANCEL: 'Cancelled',
  CANCELPEND: 'Cancellation pending',
  DONE: 'Completed',
  EXTPEND: 'Sent, awaiting confirmation',
  FAIL: 'On-chain failure, pending confirmation',
  FVERIFY: 'Face verification in progress',
  LOCKED: 'Locked by the wallet',
  MANUAL: 'Pending manual review',
  REJECT: 'Rejected',
  REQUEST: 'Requested',
  REVIEW: 'Under review',
} as const;

/** Statuses that §3.1 says appear only in the create response. */
export const WITHDRAWAL_CREATE_ONLY_STATUSES = {
  INVALID: 'Invalid',
  VERIFY: 'Verifying',
  PROCES: 'Processing',
  PEND: 'Processing',
  DMOVE: 'Pending manual review',
} as const;

export type WithdrawalStatus = keyof typeof WITHDRAWAL_STATUSES | keyof typeof WITHDRAWAL_CREATE_ONLY_STATUSES;

export const FINAL_WITHDRAWAL_STATUSES: ReadonlySet<string> = new Set(['DONE', 'CANCEL', 'REJECT']);

export function isFinalWithdrawalStatus(status: string): boolean {
  return FINAL_WITHDRAWAL_STATUSES.has(status);
}

// §3.2
export const DEPOSIT_STATUSES = {
  BLOCKED: 'Blocked',
  DEP_CREDITED: 'Credited, withdrawal pending unlock',
  DONE: 'Credited to spot account',
  INVALID: 'Invalid',
  MANUAL: 'Manual review',
  PEND: 'Processing',
  REVIEW: 'Compliance review',
  TRACK: 'Tracking block confirmations',
} as const;

// §3.3
export const TRANSFER_STATUSES = ['PENDING', 'SUCCESS', 'FAIL', 'PARTIAL_SUCCESS'] as const;
/** The desk's assumption (the spec shows no transitions): only PENDING is still moving. */
export const FINAL_TRANSFER_STATUSES: ReadonlySet<string> = new Set(['SUCCESS', 'FAIL', 'PARTIAL_SUCCESS']);
export function isFinalTransferStatus(status: string): boolean {
  return FINAL_TRANSFER_STATUSES.has(status);
}

// §3.4
export const UID_TRANSFER_STATUSES = [
  'CREATING',
  'PENDING',
  'CANCELLING',
  'CANCELLED',
  'REFUSING',
  'REFUSED',
  'RECEIVING',
  'RECEIVED',
] as const;

/**
 * Withdrawals the desk offers to cancel (DELETE /withdrawals/{id}, §4.2). §3.1 shows no transitions and
 * the live service's public documentation (its API reference and the WithdrawalRecord page of its
 * SDKs, e.g. gateio/gateapi-go docs/WithdrawalRecord.md) lists what each status means but not which
 * may be cancelled. The desk's written assumption: a withdrawal can be cancelled while nothing has
 * left the exchange and no cancellation is under way, i.e. requested, under review, in manual review
 * or in face verification. The exchange stays the judge: INVALID_WITHDRAW_CANCEL_STATUS is shown in
 * words when it disagrees.
 */
export const CANCELLABLE_WITHDRAWAL_STATUSES: ReadonlySet<string> = new Set(['REQUEST', 'REVIEW', 'MANUAL', 'FVERIFY']);

export function isCancellableWithdrawalStatus(status: string): boolean {
  return CANCELLABLE_WITHDRAWAL_STATUSES.has(status);
}

const CANCELLABLE_WORDS = [...CANCELLABLE_WITHDRAWAL_STATUSES]
  .map((s) => `${WITHDRAWAL_STATUSES[s as keyof typeof WITHDRAWAL_STATUSES]} (${s})`)
  .join(', ');

/** Where a status is not cancellable for a reason of its own, that reason; the rule follows in every case. */
const NOT_CANCELLABLE_BECAUSE: Record<string, string> = {
  CANCEL: 'it is already cancelled',
  DONE: 'it has completed',
  REJECT: 'the exchange rejected it',
  CANCELPEND: 'a cancellation is already under way; this page follows it to the end',
  EXTPEND: 'it has left the exchange and awaits confirmation on its chain',
  FAIL: 'it failed on its chain and awaits the exchange’s confirmation',
  BCODE: 'it is a deposit-code operation, not a send waiting for review',
  LOCKED: 'the exchange’s wallet holds it locked',
};

/**
 * Why the desk offers no Cancel for a withdrawal in `status`, in words an operator can read (null when
 * it does offer one). The rule is by status alone: §3.1 ties cancellation to the status, and neither the
 * spec nor the live documentation names a chain that cannot be cancelled.
 */
export function whyNotCancellable(status: string): string | null {
  if (isCancellableWithdrawalStatus(status)) return null;
  const own = NOT_CANCELLABLE_BECAUSE[status];
  return (
    `No Cancel: ${own ? `${own}. ` : `its status is ${status || 'not given'}. `}` +
    `A withdrawal can be cancelled only while it is ${CANCELLABLE_WORDS}, before anything has left the exchange, whatever its chain.`
  );
}

/**
 * §3.2 shows no transitions either. Final for the desk: DONE (credited) and INVALID. Every other
 * deposit status (BLOCKED, DEP_CREDITED, MANUAL, PEND, REVIEW, TRACK, or one not listed) is
 * refreshed until it reaches one of these.
 */
export const FINAL_DEPOSIT_STATUSES: ReadonlySet<string> = new Set(['DONE', 'INVALID']);

export function isFinalDepositStatus(status: string): boolean {
  return FINAL_DEPOSIT_STATUSES.has(status);
}
