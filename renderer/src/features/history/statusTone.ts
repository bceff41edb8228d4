import { FINAL_WITHDRAWAL_STATUSES, isFinalDepositStatus } from '../../../../shared/api/statuses.ts';

export type Tone = 'ok' | 'bad' | 'moving' | 'plain';

const OK = new Set(['DONE', 'RECEIVED', 'SUCCESS', 'success']);
const BAD = new Set(['CANCEL', 'REJECT', 'FAIL', 'REFUSED', 'CANCELLED', 'INVALID', 'BLOCKED']);

/** How a badge looks: finished well, finished badly, still moving (watched), or neither. */
export function statusTone(status: string, kind: 'withdrawals' | 'deposits' | 'other'): Tone {
  if (OK.has(status)) return 'ok';
  if (BAD.has(status)) return 'bad';
  if (kind === 'withdrawals' && !FINAL_WITHDRAWAL_STATUSES.has(status)) return 'moving';
  if (kind === 'deposits' && !isFinalDepositStatus(status)) return 'moving';
  return 'plain';
}
