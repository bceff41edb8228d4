import { describeDepositStatus, describeWithdrawalStatus } from '../../../../shared/api/statuses.ts';
import { statusTone } from './statusTone.ts';

/** Every status with its meaning in words; an unknown one is shown as it came. */
export function StatusBadge({ status, kind }: { status: string; kind: 'withdrawals' | 'deposits' | 'other' }) {
  const meaning = kind === 'withdrawals' ? describeWithdrawalStatus(status) : kind === 'deposits' ? describeDepositStatus(status) : status;
  return (
    <span className={`status-badge status-${statusTone(status, kind)}`} data-status={status} title={meaning}>
      {status}
      <span className="status-meaning"> · {meaning}</span>
    </span>
  );
}
