import type { ChannelRequest, Review } from '../../../../shared/ipc.ts';
import type { CostEstimate } from '../../../../shared/api/orderRules.ts';
import { SendForSigning } from '../approvals/index.ts';
import { LongValue } from '../../components/LongValue.tsx';

/** What will be sent, what it should cost, and the policy's verdict; signing happens in the confirmation window. */
export function OrderReview({
  review,
  write,
  estimate,
  onBack,
  onDrafted,
}: {
  review: Review;
  write: ChannelRequest<'approvalsDraft'>['write'];
  estimate: CostEstimate | null;
  onBack: () => void;
  onDrafted: () => void;
}) {
  return (
    <section className="card" aria-label="Review the order">
      <h2>Review the order</h2>
      {estimate ? (
        <p data-testid="estimate">
          Spends about{' '}
          <strong className="mono">
            {estimate.spend} {estimate.spendCurrency}
          </strong>{' '}
          and receives about{' '}
          <strong className="mono">
            {estimate.receive} {estimate.receiveCurrency}
          </strong>{' '}
          at {estimate.atPrice}, less a fee of at most{' '}
          <strong className="mono">
            {estimate.fee} {estimate.receiveCurrency}
          </strong>{' '}
          (the pair's taker rate, taken from what is received).
        </p>
      ) : (
        <p className="muted">No estimate: the book has no price on the side this order would take.</p>
      )}
      <table className="table compact" data-testid="review-body">
        <tbody>
          {review.signer && (
            <tr>
              <th>signed by sub-account</th>
              <td className="mono">{review.signer}</td>
            </tr>
          )}
          {Object.entries(review.body).map(([k, v]) => (
            <tr key={k}>
              <th>{k}</th>
              <td>
                <LongValue text={String(v)} />
              </td>
            </tr>
          ))}
        </tbody>
      </table>
      {review.destination_note && <p className="small">Valued for the policy as the {review.destination_note}.</p>}
      <SendForSigning
        review={review}
        write={write}
        what="order"
        onBack={onBack}
        afterDraft={
          <div className="actions">
            <button type="button" onClick={onDrafted}>
              New order
            </button>
          </div>
        }
      />
    </section>
  );
}
