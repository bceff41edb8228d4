import { groupDigits } from '../../../../shared/digits.ts';
import type { IntentView } from '../../../../shared/ipc.ts';
import { ErrorPanel } from '../../components/ErrorPanel.tsx';
import { InDoubt } from '../../components/InDoubt.tsx';
import { LongValue } from '../../components/LongValue.tsx';
import { useDeskQuery } from '../../desk/hooks.ts';
import { time } from './time.ts';

// A withdrawal this desk sent is on this page at once, before the exchange's list (read every minute or
// so) holds it: marked as not yet confirmed there, with what the desk knows of it so far. It leaves this
// panel for the list below once the list is read with it.

function where(i: IntentView): string {
  if (i.state === 'unconfirmed') return 'sent, no answer: it may still reach the exchange';
  if (i.state === 'in_flight') return 'sent, waiting for the answer';
  if (i.exchange_id) return `accepted by the exchange as ${i.exchange_id}${i.status ? ` (${i.status})` : ''}`;
  return i.state.replace(/_/g, ' ');
}

export function SentUnlistedPanel() {
  const q = useDeskQuery('withdrawalsSentUnlisted', {});
  if (q.isError) return <ErrorPanel error={q.error} />;
  const items = q.data?.items ?? [];
  if (!items.length) return null;
  return (
    <section className="card" aria-label="Sent by this desk, not yet confirmed by the exchange">
      <h2>Sent by this desk, not yet confirmed by the exchange ({items.length})</h2>
      <p className="muted small">
        The exchange's withdrawal list, as last read, does not hold these yet; they move to the list below once it does.
      </p>
      <ul className="sent-unlisted">
        {items.map((i) => (
          <li key={i.id} data-sent-unlisted={i.client_id ?? i.id}>
            <strong>
              {groupDigits(String(i.body.amount ?? ''))} {String(i.body.currency ?? '')}
            </strong>{' '}
            on {String(i.body.chain ?? '')} to <LongValue text={String(i.body.address ?? '')} copy="address" />{' '}
            <span className="muted small">
              {time(String(Math.floor((i.last_sent_at ?? i.created_at) / 1000)))} UTC · order id {i.client_id}
            </span>{' '}
            <span className="badge" data-testid="sent-unlisted-state">
              not yet confirmed by the exchange · {where(i)}
            </span>
            <InDoubt state={i.state} until={i.doubt_until} />
          </li>
        ))}
      </ul>
    </section>
  );
}
