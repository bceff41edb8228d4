import { describeDepositStatus, describeWithdrawalStatus, FINAL_WITHDRAWAL_STATUSES } from '../../../../shared/api/statuses.ts';

/** Every status with its meaning in words; an unknown one is shown as it came. */
export function StatusBadge({ status, kind }: { status: string; kind: 'withdrawals' | 'deposits' | 'other' }) {
  const meaning = kind === 'withdrawals' ? describeWithdrawalStatus(status) : kind === 'deposits' ? describeDepositStatus(status) : status;
  const tone = status === 'DONE' || status === 'RECEIVED' || status.toLowerCase() === 'success' ? 'ok'
    : status === 'CANCEL' || status === 'REJECT' || status === 'FAIL' || status === 'REFUSED' || status === 'CANCELLED' || status === 'INVALID' ? 'bad'
      : kind === 'withdrawals' && !FINAL_WITHDRAWAL_STATUSES.has(status) ? 'moving' : 'plain';
  return (
    <span className={`status-badge status-${tone}`} data-status={status} title={meaning}>
      {status}<span className="status-meaning"> · {meaning}</span>
    </span>
  );
}
