import { lazy, Suspense } from 'react';
import { groupDigits } from '../../../../shared/digits.ts';
import { ErrorPanel } from '../../components/ErrorPanel.tsx';
import { LongValue } from '../../components/LongValue.tsx';
import { withWords } from '../../components/withWords.ts';
import { useDeskQuery } from '../../desk/hooks.ts';

// The list draws without the schema library; the note's form, which checks with zod, loads once there is
// something to acknowledge, so the Withdrawals page's rows never wait for it (docs/performance.md §Long lists).
const Acknowledge = lazy(() => withWords(import('./UnsentAcknowledge.tsx')).then((m) => ({ default: m.Acknowledge })));

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
            : {groupDigits(item.amount)} {item.currency} to <LongValue text={item.to} copy="destination" />{' '}
            <span className="muted">
              ({item.status}, {new Date(Number(item.timestamp) * 1000).toISOString().replace('T', ' ').slice(0, 19)} UTC)
            </span>
          </div>
          <Suspense fallback={<p className="muted small">Opening the note…</p>}>
            <Acknowledge item={item} />
          </Suspense>
        </div>
      ))}
    </section>
  );
}
