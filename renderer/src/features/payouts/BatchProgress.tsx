import { useState } from 'react';
import { ErrorPanel } from '../../components/ErrorPanel.tsx';
import { saveText } from '../../components/saveText.ts';
import { useDesk } from '../../desk/DeskProvider.tsx';
import { useDeskQuery } from '../../desk/hooks.ts';
import { LongValue } from '../../components/LongValue.tsx';
import { RawDetails } from '../../components/RawDetails.tsx';
import { InDoubt } from '../../components/InDoubt.tsx';

export const STATE_WORDS = {
  drafted: "Drafted: waiting for its drafter's signature in the confirmation window",
  waiting: 'Waiting for approvals in the confirmation window',
  approved: "Approved: the rows go out one at a time, at the exchange's pace for withdrawals",
  sent: 'Every row was handed to the exchange',
  rejected: 'Rejected: no row is sent',
  expired: 'Expired before its approvals were complete: no row is sent; import the file again if it is still wanted',
} as const;

/** A queued batch: its approvals, a progress bar from its rows' journal states, and the report. */
export function BatchProgress({ batchRef }: { batchRef: string }) {
  const desk = useDesk();
  const progress = useDeskQuery('payoutsProgress', { ref: batchRef });
  const [exportError, setExportError] = useState<unknown>(null);
  const [note, setNote] = useState<string | null>(null);
  if (progress.isError) return <ErrorPanel error={progress.error} onRetry={() => void progress.refetch()} />;
  const p = progress.data;
  if (!p) return <p className="muted">Reading the batch…</p>;
  const total = p.rows.length;
  const finished = total - p.counts.pending;
  const exportReport = () => {
    setExportError(null);
    desk.call('payoutsReport', { ref: batchRef }).then((r) => {
      saveText(r.csv, r.filename, 'text/csv');
      setNote(`${r.rows} rows exported to ${r.filename}.`);
    }, setExportError);
  };
  return (
    <section className="card" aria-label="Batch progress">
      <h2>{p.title}</h2>
      <p className="small muted">
        {p.file} · SHA-256 <LongValue text={p.sha256} />
      </p>
      <p data-testid="batch-state">
        {STATE_WORDS[p.state]}
        {p.state === 'waiting'
          ? ` (${p.approved_by.length} of ${p.needed} signed${p.approved_by.length ? `: ${p.approved_by.join(', ')}` : ''})`
          : p.approved_by.length
            ? `; approved by ${p.approved_by.join(', ')}`
            : ''}
        .
      </p>
      <div className="payout-progress" role="status" data-testid="payout-progress">
        <progress max={Math.max(1, total)} value={finished} aria-label="Rows finished" />
        <span>
          {finished} of {total} finished: {p.counts.sent} sent, {p.counts.refused} refused, {p.counts.skipped} skipped
          {p.counts.pending ? `, ${p.counts.pending} to go` : ''}.
        </span>
      </div>
      <table className="table compact payout-rows" aria-label="Report" data-testid="payout-report">
        <thead>
          <tr>
            <th>Row</th>
            <th>Reference</th>
            <th>Currency</th>
            <th>Address</th>
            <th className="num">Amount</th>
            <th>Outcome</th>
            <th>Status</th>
            <th>Why</th>
          </tr>
        </thead>
        <tbody>
          {p.rows.map((r) => (
            <tr key={r.ref} data-outcome={r.outcome}>
              <td className="num">{r.row ?? ''}</td>
              <td className="addr">{r.reference}</td>
              <td>
                {r.currency} {r.chain}
              </td>
              <td className="addr mono">{r.address}</td>
              <td className="num">{r.amount}</td>
              <td>{r.outcome}</td>
              <td>{r.status ?? (r.state === 'unconfirmed' ? 'outcome not known yet' : r.state) ?? ''}</td>
              <td className="wrap small">
                <InDoubt state={r.state} until={r.doubt_until} />
                {r.sentence ?? ''}
                <RawDetails lines={[r.label ? `Label: ${r.label}` : null]} />
              </td>
            </tr>
          ))}
        </tbody>
      </table>
      {exportError !== null && <ErrorPanel error={exportError} />}
      {note && (
        <p className="muted" role="status">
          {note}
        </p>
      )}
      <div className="actions">
        <button type="button" onClick={exportReport}>
          Export report CSV
        </button>
      </div>
    </section>
  );
}
