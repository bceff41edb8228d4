import type { ChannelRequest, Review } from '../../../../shared/ipc.ts';
import { SendForSigning } from './SendForSigning.tsx';
import { LongValue } from '../../components/LongValue.tsx';

/** Exactly what will be sent, then the policy's verdict and the send step. */
export function ReviewStep({
  review,
  write,
  onBack,
}: {
  review: Review;
  write: ChannelRequest<'approvalsDraft'>['write'];
  onBack: () => void;
}) {
  return (
    <section className="card" aria-label="Review">
      <h2>Review</h2>
      <table className="table compact" data-testid="review-body">
        <tbody>
          <tr>
            <th>Kind</th>
            <td>{review.kind.replace(/_/g, ' ')}</td>
          </tr>
          {review.signer && (
            <tr>
              <th>Signed by</th>
              <td>
                sub-account <span className="mono">{review.signer}</span>'s own key
              </td>
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
      {review.destination_note && <p className="small">Destination: {review.destination_note}</p>}
      <SendForSigning review={review} write={write} what="write" onBack={onBack} />
    </section>
  );
}
