import type { PayoutBatchItem } from '../../../../shared/payouts.ts';
import { ErrorPanel } from '../../components/ErrorPanel.tsx';
import { useDeskMutation, useDeskQuery } from '../../desk/hooks.ts';
import { STATE_WORDS } from './BatchProgress.tsx';
import { dateTime } from '../../components/localTime.ts';

// Every payout batch of the profile that the operator has not archived, newest first: it stays here
// across navigation and restarts (the core keeps the list), with its state, counts and totals, and a
// link back to its report. Archive takes an ended batch off the list; its journal and report are kept.

function totals(b: PayoutBatchItem): string {
  return b.totals.map((t) => `${t.amount} ${t.currency}${t.fee ? ` (fee ${t.fee})` : ''}`).join(', ');
}

function counts(b: PayoutBatchItem): string {
  const c = b.counts;
  return `${c.sent} sent, ${c.refused} refused, ${c.skipped} skipped${c.pending ? `, ${c.pending} to go` : ''}`;
}

export function PayoutBatches({ open, onOpen }: { open: string | null; onOpen: (ref: string) => void }) {
  const batches = useDeskQuery('payoutsBatches', {});
  const archive = useDeskMutation('payoutsArchive');
  if (batches.isError) return <ErrorPanel error={batches.error} onRetry={() => void batches.refetch()} />;
  const list = batches.data ?? [];
  if (!list.length) return null;
  return (
    <section className="card" aria-label="Payout batches">
      <h2>Batches</h2>
      <table className="table compact" data-testid="payout-batches">
        <thead>
          <tr>
            <th>Batch</th>
            <th>State</th>
            <th>Rows</th>
            <th className="num">Total</th>
            <th />
          </tr>
        </thead>
        <tbody>
          {list.map((b) => (
            <tr key={b.ref} aria-current={b.ref === open ? 'true' : undefined} data-testid="payout-batch">
              <td>
                {b.title}
                <div className="small muted">
                  {b.file} · {dateTime(b.created_at)}
                </div>
              </td>
              <td className="small">{STATE_WORDS[b.state]}</td>
              <td className="small">
                {b.rows} rows: {counts(b)}
              </td>
              <td className="num">{totals(b)}</td>
              <td className="actions">
                <button type="button" onClick={() => onOpen(b.ref)} disabled={b.ref === open}>
                  Open report
                </button>
                <button
                  type="button"
                  disabled={!b.archivable || archive.isPending}
                  title={b.archivable ? undefined : 'A batch can be archived once every row has ended, or once it is rejected.'}
                  onClick={() => archive.mutate({ ref: b.ref })}
                >
                  Archive
                </button>
              </td>
            </tr>
          ))}
        </tbody>
      </table>
      {archive.isError && <ErrorPanel error={archive.error} />}
    </section>
  );
}
