// Why a withdrawal's cancellation goes to the exchange at once while every other write waits for a
// signature: said wherever a cancel is offered, so that the difference never reads as a gap in the policy.

export const CANCEL_NEEDS_NO_SIGNATURE =
  'Cancelling needs no signature: it only stops money leaving and cannot move money out, so it is never held for approvals.';
