import { useState } from 'react';
import { groupDigits } from '../../../../shared/money.ts';
import type { UnsentItem } from '../../../../shared/history.ts';
import { ErrorPanel } from '../../components/ErrorPanel.tsx';
import { useDeskMutation, useDeskQuery } from '../../desk/hooks.ts';

function Acknowledge({ item }: { item: UnsentItem }) {
  const [note, setNote] = useState('');
  const ack = useDeskMutation('unsentAcknowledge');
  return (
    <div className="row">
      <input
        aria-label={`Note for ${item.id}`}
        placeholder="what you found (who sent it, why)"
        size={40}
        value={note}
        onChange={(e) => setNote(e.target.value)}
      />
      <button type="button" disabled={!note.trim() || ack.isPending} onClick={() => ack.mutate({ kind: item.kind, id: item.id, note })}>
        Acknowledge
      </button>
      {ack.isError && <ErrorPanel error={ack.error} />}
    </div>
  );
}

/**
 * Outflows dated after the desk began watching this profile that its journal does not account for:
 * kept at the top of the page until an operator says what they were.
 */
export function UnsentPanel() {
  const q = useDeskQuery('unsentList', {});
  if (q.isError) return <ErrorPanel error={q.error} />;
  if (!q.data?.length) return null;
  return (
    <section className="card unsent" aria-label="Not sent by this desk">
      <h2>Not sent by this desk ({q.data.length})</h2>
      <p className="muted small">
        These left the account after this desk began watching it, and no entry of its journal sent them. If nobody on your team sent them
        from elsewhere, the key may be in someone else's hands: revoke it at the exchange.
      </p>
      {q.data.map((item) => (
        <div key={`${item.kind}:${item.id}`} className="unsent-item" data-unsent={item.id}>
          <div>
            <strong>
              {item.kind === 'withdrawals' ? 'Withdrawal' : 'UID transfer'} {item.id}
            </strong>
            : {groupDigits(item.amount)} {item.currency} to <span className="mono">{item.to}</span>{' '}
            <span className="muted">
              ({item.status}, {new Date(Number(item.timestamp) * 1000).toISOString().replace('T', ' ').slice(0, 19)} UTC)
            </span>
          </div>
          <Acknowledge item={item} />
        </div>
      ))}
    </section>
  );
}
