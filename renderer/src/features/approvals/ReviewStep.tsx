import type { ChannelRequest, Review } from '../../../../shared/ipc.ts';
import { ErrorPanel } from '../../components/ErrorPanel.tsx';
import { useDeskMutation } from '../../desk/hooks.ts';
import { VerdictTable } from './Verdict.tsx';

/** Exactly what will be sent and the policy's verdict; a blocked write has no send button. */
export function ReviewStep({ review, write, onBack }: { review: Review; write: ChannelRequest<'approvalsDraft'>['write']; onBack: () => void }) {
  const draft = useDeskMutation('approvalsDraft');
  const blocked = review.verdict.decision === 'block';
  return (
    <section className="card" aria-label="Review">
      <h2>Review</h2>
      <table className="table compact" data-testid="review-body">
        <tbody>
          <tr><th>Kind</th><td>{review.kind.replace(/_/g, ' ')}</td></tr>
          {review.signer && <tr><th>Signed by</th><td>sub-account <span className="mono">{review.signer}</span>'s own key</td></tr>}
          {Object.entries(review.body).map(([k, v]) => <tr key={k}><th>{k}</th><td className="mono">{String(v)}</td></tr>)}
        </tbody>
      </table>
      {review.destination_note && <p className="small">Destination: {review.destination_note}</p>}
      <VerdictTable verdict={review.verdict} />
      {draft.isError && <ErrorPanel error={draft.error} />}
      {draft.data
        ? <p role="status" data-testid="awaiting-signature">Waiting for a signature in the confirmation window: “{draft.data.title}”. Nothing is sent until the policy's approvals are signed there.</p>
        : (
          <div className="actions">
            <button type="button" onClick={onBack}>Edit</button>
            {!blocked && <button className="primary" type="button" disabled={draft.isPending} onClick={() => draft.mutate({ write })}>Send for signing</button>}
          </div>
        )}
      {blocked && <p className="field-error" role="alert">The policy blocks this write: it cannot be sent.</p>}
    </section>
  );
}
