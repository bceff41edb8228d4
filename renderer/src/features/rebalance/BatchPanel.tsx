import { useState } from 'react';
import type { BatchView } from '../../../../shared/rebalance.ts';
import { ErrorPanel } from '../../components/ErrorPanel.tsx';
import { saveText } from '../../components/saveText.ts';
import { useDesk } from '../../desk/DeskProvider.tsx';
import { useDeskMutation } from '../../desk/hooks.ts';
import { InDoubt } from '../../components/InDoubt.tsx';

// One batch: waiting for its signatures, running (a progress bar; Cancel stops between transfers),
// paused with the reason, or finished with its report, which exports to CSV.

const STATE_WORDS: Record<BatchView['rows'][number]['state'], string> = {
  done: 'done',
  failed: 'failed',
  skipped: 'skipped',
  needs_attention: 'needs attention',
  pending: 'to send',
};

export function BatchPanel({ batch }: { batch: BatchView }) {
  const desk = useDesk();
  const cancel = useDeskMutation('rebalanceCancel');
  const resume = useDeskMutation('rebalanceResume');
  const archive = useDeskMutation('rebalanceArchive');
  const [exportError, setExportError] = useState<unknown>(null);
  const [note, setNote] = useState<string | null>(null);
  const count = (s: string) => batch.rows.filter((r) => r.state === s).length;
  const ended = batch.rows.length - count('pending');
  const exportCsv = () => {
    setExportError(null);
    desk.call('rebalanceReport', { ref: batch.ref }).then((r) => {
      saveText(r.csv, r.filename, 'text/csv');
      setNote(`${r.rows} transfers exported to ${r.filename}.`);
    }, setExportError);
  };
  return (
    <section className="card" aria-label={`Batch ${batch.title}`} data-testid="batch">
      <h2>{batch.title}</h2>
      <p data-testid="batch-state">
        {batch.state === 'waiting' && 'Waiting for approval in the confirmation window. Nothing is sent until it is signed.'}
        {batch.state === 'rejected' && 'Rejected in the confirmation window: nothing was sent.'}
        {batch.state === 'expired' && 'Expired before its approvals were complete: nothing was sent. Plan it again if it is still wanted.'}
        {batch.state === 'running' && (batch.cancelling ? 'Cancelling: the transfers under way finish, the rest is skipped.' : 'Running.')}
        {batch.state === 'paused' && 'Paused: nothing more is sent.'}
        {batch.state === 'finished' &&
          `Finished: ${count('done')} done, ${count('failed')} failed, ${count('skipped')} skipped${count('needs_attention') ? `, ${count('needs_attention')} need attention (Activity page)` : ''}.`}
      </p>
      {batch.paused && (
        <p className="error-panel" role="alert" data-testid="paused-reason">
          {batch.paused}
        </p>
      )}
      {batch.rows.length > 0 && batch.state !== 'waiting' && batch.state !== 'rejected' && batch.state !== 'expired' && (
        <div className="row">
          <progress max={batch.rows.length} value={ended} aria-label="Transfers ended" data-testid="batch-progress" />
          <span className="small">
            {ended} of {batch.rows.length} transfers ended
          </span>
        </div>
      )}
      <div className="actions">
        {(batch.state === 'running' || batch.state === 'paused') && !batch.cancelling && (
          <button
            type="button"
            className="danger"
            disabled={cancel.isPending}
            onClick={() => cancel.mutate({ ref: batch.ref, reason: 'the operator pressed Cancel' })}
          >
            {batch.state === 'paused' ? 'Cancel the rest' : 'Cancel between transfers'}
          </button>
        )}
        {batch.state === 'paused' && (
          <button type="button" disabled={resume.isPending} onClick={() => resume.mutate({ ref: batch.ref })}>
            Read balances and resume
          </button>
        )}
        {batch.rows.length > 0 && batch.state !== 'waiting' && batch.state !== 'rejected' && batch.state !== 'expired' && (
          <button type="button" onClick={exportCsv}>
            Export report (CSV)
          </button>
        )}
        {(batch.state === 'finished' || batch.state === 'rejected') && (
          <button type="button" disabled={archive.isPending} onClick={() => archive.mutate({ ref: batch.ref })}>
            Archive
          </button>
        )}
      </div>
      {cancel.isError && <ErrorPanel error={cancel.error} />}
      {resume.isError && <ErrorPanel error={resume.error} />}
      {archive.isError && <ErrorPanel error={archive.error} />}
      {exportError !== null && <ErrorPanel error={exportError} />}
      {note && (
        <p className="muted small" role="status">
          {note}
        </p>
      )}
      {batch.rows.length > 0 && (
        <details open={batch.state === 'finished' || batch.state === 'paused'}>
          <summary>Report</summary>
          <table className="table" data-testid="batch-report">
            <thead>
              <tr>
                <th>#</th>
                <th>From</th>
                <th>To</th>
                <th className="num">Amount</th>
                <th>State</th>
                <th>Why</th>
              </tr>
            </thead>
            <tbody>
              {batch.rows.map((r) => (
                <tr key={r.transfer} data-state={r.state}>
                  <td>{r.transfer}</td>
                  <td className="mono">{r.from}</td>
                  <td className="mono">{r.to}</td>
                  <td className="num">
                    {r.amount} {r.currency}
                  </td>
                  <td>{r.in_doubt ? 'outcome not known yet' : STATE_WORDS[r.state]}</td>
                  <td className="small wrap">
                    <InDoubt state={r.in_doubt ? 'unconfirmed' : r.state} until={r.doubt_until} />
                    {r.reason}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </details>
      )}
    </section>
  );
}
