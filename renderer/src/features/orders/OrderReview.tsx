import type { ChannelRequest, Review } from '../../../../shared/ipc.ts';
import type { CostEstimate } from '../../../../shared/api/orderRules.ts';
import { ErrorPanel } from '../../components/ErrorPanel.tsx';
import { useDeskMutation } from '../../desk/hooks.ts';
import { VerdictTable } from '../approvals/Verdict.tsx';

/** What will be sent, what it should cost, and the policy's verdict; signing happens in the confirmation window. */
export function OrderReview({ review, write, estimate, onBack, onDrafted }: {
  review: Review; write: ChannelRequest<'approvalsDraft'>['write']; estimate: CostEstimate | null; onBack: () => void; onDrafted: () => void;
}) {
  const draft = useDeskMutation('approvalsDraft');
  const blocked = review.verdict.decision === 'block';
  return (
    <section className="card" aria-label="Review the order">
      <h2>Review the order</h2>
      {estimate
        ? (
          <p data-testid="estimate">
            Spends about <strong className="mono">{estimate.spend} {estimate.spendCurrency}</strong> and receives about{' '}
            <strong className="mono">{estimate.receive} {estimate.receiveCurrency}</strong> at {estimate.atPrice}, less a fee of at most{' '}
            <strong className="mono">{estimate.fee} {estimate.receiveCurrency}</strong> (the pair's taker rate, taken from what is received).
          </p>
        )
        : <p className="muted">No estimate: the book has no price on the side this order would take.</p>}
      <table className="table compact" data-testid="review-body">
        <tbody>
          {review.signer && <tr><th>signed by sub-account</th><td className="mono">{review.signer}</td></tr>}
          {Object.entries(review.body).map(([k, v]) => <tr key={k}><th>{k}</th><td className="mono">{String(v)}</td></tr>)}
        </tbody>
      </table>
      {review.destination_note && <p className="small">Valued for the policy as the {review.destination_note}.</p>}
      <VerdictTable verdict={review.verdict} />
      {draft.isError && <ErrorPanel error={draft.error} />}
      {draft.data
        ? (
          <>
            <p role="status" data-testid="awaiting-signature">Waiting for a signature in the confirmation window: “{draft.data.title}”. Nothing is sent until the policy's approvals are signed there.</p>
            <div className="actions"><button type="button" onClick={onDrafted}>New order</button></div>
          </>
        )
        : (
          <div className="actions">
            <button type="button" onClick={onBack}>Edit</button>
            {!blocked && <button className="primary" type="button" disabled={draft.isPending} onClick={() => draft.mutate({ write })}>Send for signing</button>}
          </div>
        )}
      {blocked && <p className="field-error" role="alert">The policy blocks this order: it cannot be sent.</p>}
    </section>
  );
}
