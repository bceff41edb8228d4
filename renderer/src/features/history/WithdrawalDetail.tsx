import { useState } from 'react';
import { whyNotCancellable } from '../../../../shared/api/statuses.ts';
import { statusWords } from '../../../../shared/api/statusWords.ts';
import { groupDigits } from '../../../../shared/digits.ts';
import { ErrorPanel } from '../../components/ErrorPanel.tsx';
import { DeskError } from '../../desk/desk.ts';
import { useDeskMutation, useDeskQuery } from '../../desk/hooks.ts';
import { Copy } from '../../components/Copy.tsx';
import { StatusBadge } from './StatusBadge.tsx';
import { LongValue } from '../../components/LongValue.tsx';
import { CANCEL_NEEDS_NO_SIGNATURE } from '../../components/cancelWords.ts';

const at = (ms: number) => new Date(ms).toISOString().replace('T', ' ').slice(0, 19);
const atSec = (s: string) => (s && Number(s) > 0 ? at(Number(s) * 1000) : '');

function cancelError(e: Error): string | null {
  if (e instanceof DeskError && e.body.label === 'INVALID_WITHDRAW_CANCEL_STATUS') {
    return 'The exchange refused: this withdrawal is past the point where it can be cancelled (it may already be on its way, being cancelled, or finished). Nothing changed; watch its status here.';
  }
  return null;
}

function CancelButton({ id, amount, status, cancellable }: { id: string; amount: string; status: string; cancellable: boolean }) {
  const [confirming, setConfirming] = useState(false);
  const cancel = useDeskMutation('withdrawalCancel');
  if (cancel.isSuccess) {
    return (
      <p className="notice" role="status">
        Cancellation accepted (202): the exchange is processing it; the status now reads {cancel.data.status}, and this page follows it to
        the end.
      </p>
    );
  }
  return (
    <div>
      {!confirming && (
        <button type="button" className="danger" onClick={() => setConfirming(true)}>
          Cancel withdrawal
        </button>
      )}
      <p className="small muted" data-testid="cancel-unsigned">
        {CANCEL_NEEDS_NO_SIGNATURE}
      </p>
      {confirming && (
        <div className="confirm" role="alertdialog" aria-label={`Cancel ${id}`}>
          <p>
            Cancel withdrawal {id} of {amount}? The exchange decides: if it has already sent it, the cancellation is refused.
          </p>
          {!cancellable && <p className="field-error">Its status has just become {status}: the exchange will most likely refuse.</p>}
          <button type="button" className="danger" disabled={cancel.isPending} onClick={() => cancel.mutate({ id })}>
            Yes, cancel it
          </button>
          <button type="button" onClick={() => setConfirming(false)}>
            Keep it
          </button>
        </div>
      )}
      {cancel.isError &&
        (cancelError(cancel.error) ? (
          <p className="error-panel" role="alert">
            {cancelError(cancel.error)}
          </p>
        ) : (
          <ErrorPanel error={cancel.error} />
        ))}
    </div>
  );
}

/** One withdrawal: every status the desk saw and when, the failure reason, and who sent it. */
export function WithdrawalDetail({ id, onClose }: { id: string; onClose: () => void }) {
  const [offered, setOffered] = useState(false);
  const q = useDeskQuery('withdrawalDetail', { id });
  if (q.isError) return <ErrorPanel error={q.error} />;
  if (!q.data) return <p className="muted">Loading {id}…</p>;
  const { record: r, timeline, intent, cancellable } = q.data;
  // Once offered, the cancel stays on this panel even if the status moves on while the operator looks:
  // the exchange is the judge, and its refusal is shown in words.
  if (cancellable && !offered) setOffered(true);
  return (
    <aside className="card detail" aria-label={`Withdrawal ${r.id}`} data-detail={r.id}>
      <div className="page-header">
        <h2>Withdrawal {r.id}</h2>
        <button type="button" onClick={onClose}>
          Close
        </button>
      </div>
      <p>
        <StatusBadge status={r.status} kind="withdrawal" />
      </p>
      <dl className="facts">
        <dt>Amount</dt>
        <dd>
          {groupDigits(r.amount)} {r.currency} (fee {r.fee || '0'})
        </dd>
        <dt>Chain</dt>
        <dd>{r.chain}</dd>
        <dt>Address</dt>
        <dd>
          <span className="mono long-value" data-testid="detail-address" title={r.address}>
            {r.address}
          </span>{' '}
          <Copy text={r.address} label="address" />
          {r.memo ? (
            <>
              {' '}
              memo <LongValue text={r.memo} copy="memo" />
            </>
          ) : null}
        </dd>
        <dt>Txid</dt>
        <dd>{r.txid ? <LongValue text={r.txid} copy="txid" /> : '—'}</dd>
        <dt>Order id</dt>
        <dd>{r.withdraw_order_id ? <LongValue text={r.withdraw_order_id} copy="order id" /> : '—'}</dd>
        <dt>Time</dt>
        <dd>
          {atSec(r.timestamp)} UTC{r.timestamp2 ? ` · final ${atSec(r.timestamp2)} UTC` : ''}
        </dd>
        {r.fail_reason && (
          <>
            <dt>Reason</dt>
            <dd>{r.fail_reason}</dd>
          </>
        )}
        {r.block_number && (
          <>
            <dt>Block</dt>
            <dd>{r.block_number}</dd>
          </>
        )}
      </dl>
      <h3>Statuses seen by this desk</h3>
      <ol className="timeline">
        {timeline.map((t) => (
          <li key={`${t.status}-${t.seen_at}`}>
            <strong>{t.status}</strong> {statusWords('withdrawal', t.status)} <span className="muted">{at(t.seen_at)} UTC</span>
          </li>
        ))}
      </ol>
      <h3>Sent by</h3>
      {intent ? (
        <p data-testid="sent-by">
          This desk: journal entry {intent.id}
          {intent.approved_by ? `, approved by ${intent.approved_by}` : ''},{' '}
          {new Date(intent.created_at).toISOString().slice(0, 19).replace('T', ' ')} UTC{intent.note ? ` (${intent.note})` : ''}.
        </p>
      ) : r.desk.unsent ? (
        <p className="error-panel" data-testid="sent-by">
          Not sent by this desk{r.desk.unsent.note ? `; acknowledged: ${r.desk.unsent.note}` : ''}.
        </p>
      ) : (
        <p className="muted" data-testid="sent-by">
          No journal entry: it predates this desk's watch, or another tool sent it before.
        </p>
      )}
      {cancellable || offered ? (
        <CancelButton id={r.id} amount={`${groupDigits(r.amount)} ${r.currency}`} status={r.status} cancellable={cancellable} />
      ) : (
        <p className="muted" data-testid="no-cancel">
          {whyNotCancellable(r.status)}
        </p>
      )}
    </aside>
  );
}
