import { useState } from 'react';
import { describeWithdrawalStatus } from '../../../shared/api/statuses.ts';
import { groupDigits } from '../../../shared/money.ts';
import type { IntentView } from '../../../shared/ipc.ts';
import { ErrorPanel } from '../components/ErrorPanel.tsx';
import { useDeskMutation } from '../hooks/useDeskMutation.ts';
import { useDeskQuery } from '../hooks/useDeskQuery.ts';

const KIND_NAMES: Record<IntentView['kind'], string> = {
  withdrawal: 'Withdrawal', main_sub_transfer: 'Main/sub transfer', own_transfer: 'Own-account transfer',
  sub_to_sub_transfer: 'Sub-to-sub transfer', uid_transfer: 'UID transfer',
};

// What each state means for the operator: the journal's proof, in words.
const STATE_NAMES: Record<IntentView['state'], string> = {
  pending_approval: 'Awaiting your approval', approved: 'Approved, queued', in_flight: 'Sent, awaiting the answer',
  unconfirmed: 'Unconfirmed: looking it up, never resent blindly', accepted: 'Accepted by the exchange', done: 'Done',
  refused: 'Refused by the exchange', needs_attention: 'Needs your attention', settled: 'Settled by you', cancelled: 'Cancelled',
};

function summary(i: IntentView): string {
  const b = i.body;
  const amount = typeof b.amount === 'string' ? `${groupDigits(b.amount)} ${b.currency ?? ''}` : '';
  if (i.kind === 'withdrawal') return `${amount} to ${b.address} (${b.chain})`;
  if (i.kind === 'main_sub_transfer') return `${amount} ${b.direction === 'to' ? 'to' : 'from'} sub-account ${b.sub_account}`;
  if (i.kind === 'sub_to_sub_transfer') return `${amount} from ${b.sub_account_from} to ${b.sub_account_to}`;
  if (i.kind === 'uid_transfer') return `${amount} to UID ${b.receive_uid}`;
  return `${amount} from ${b.from} to ${b.to}`;
}

function SettleForm({ intent, onDone }: { intent: IntentView; onDone: () => void }) {
  const settle = useDeskMutation('writeSettle');
  const [note, setNote] = useState('');
  return (
    <div className="confirm" role="alertdialog" aria-label={`Settle ${intent.id}`}>
      <p>The desk cannot prove whether this {KIND_NAMES[intent.kind].toLowerCase()} happened{intent.reason ? ` (${intent.reason})` : ''}.
        Check the balances or records at the exchange, then say what you found. The desk will not send it again either way.</p>
      <input aria-label="What you checked" placeholder="what you checked" value={note} onChange={(e) => setNote(e.target.value)} />
      <button type="button" disabled={!note.trim()} onClick={() => settle.mutate({ id: intent.id, outcome: 'done', note }, { onSuccess: onDone })}>It happened</button>
      <button type="button" disabled={!note.trim()} onClick={() => settle.mutate({ id: intent.id, outcome: 'not_done', note }, { onSuccess: onDone })}>It did not happen</button>
      <button type="button" onClick={onDone}>Not now</button>
      {settle.isError && <ErrorPanel error={settle.error} />}
    </div>
  );
}

/** Every write the desk journaled, live: what it was, where it stands, and what the operator may do. */
export function ActivityPage() {
  // The newest writes; an intent event updates its row in place (desk/cache.ts), nothing is refetched.
  const list = useDeskQuery('intentsList', { unfinished_only: false, limit: 200 });
  const approve = useDeskMutation('writeApprove');
  const cancel = useDeskMutation('writeCancel');
  const [settling, setSettling] = useState<IntentView | null>(null);

  return (
    <section className="page">
      <header className="page-header"><h1>Activity</h1></header>
      {list.isError && <ErrorPanel error={list.error} onRetry={() => void list.refetch()} />}
      {list.data && list.data.items.length === 0 && <p className="muted">No withdrawals or transfers yet.</p>}
      {list.data && list.data.items.length > 0 && (
        <table className="table" data-testid="intents">
          <thead><tr><th>When</th><th>What</th><th>Details</th><th>State</th><th>Exchange</th><th /></tr></thead>
          <tbody>
            {list.data.items.map((i) => (
              <tr key={i.id} data-intent={i.id} data-state={i.state}>
                <td className="small">{new Date(i.created_at).toLocaleString()}</td>
                <td>{KIND_NAMES[i.kind]}</td>
                <td className="small">{summary(i)}{i.client_id && <div className="muted mono">{i.client_id}</div>}</td>
                <td>{STATE_NAMES[i.state] ?? i.state}{i.attempts > 1 && <span className="muted small"> · {i.attempts} sends</span>}
                  {(i.label || i.reason) && <div className="small field-error">{i.label ?? ''} {i.reason ?? ''}</div>}</td>
                <td className="small">{i.exchange_id ?? ''}{i.status && <div title={describeWithdrawalStatus(i.status)}>{i.status}: {describeWithdrawalStatus(i.status)}</div>}</td>
                <td className="actions">
                  {i.state === 'pending_approval' && <button type="button" className="primary" onClick={() => approve.mutate({ id: i.id })}>Approve and send</button>}
                  {i.state === 'pending_approval' && <button type="button" onClick={() => cancel.mutate({ id: i.id, reason: 'cancelled by the operator' })}>Cancel</button>}
                  {i.state === 'needs_attention' && <button type="button" onClick={() => setSettling(i)}>Settle…</button>}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      {approve.isError && <ErrorPanel error={approve.error} />}
      {cancel.isError && <ErrorPanel error={cancel.error} />}
      {settling && <SettleForm intent={settling} onDone={() => setSettling(null)} />}
    </section>
  );
}
