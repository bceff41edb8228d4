import { LowCapFlag, useLowCap } from '../../components/LowCap.tsx';
import type { PayoutReview } from '../../../../shared/payouts.ts';
import { ErrorPanel } from '../../components/ErrorPanel.tsx';
import { VerdictTable } from '../approvals/index.ts';

const FIELD_WORDS: Record<string, string> = {
  row: 'the row',
  currency: 'currency',
  chain: 'chain',
  address: 'address',
  memo: 'memo',
  amount: 'amount',
  reference: 'reference',
};

/** The core's reading of a payout file: every bad row with its errors, the valid rows, their totals and the policy's verdict on the batch. */
export function ImportReview({
  review,
  queue,
  queuing,
  queueError,
}: {
  review: PayoutReview;
  queue: () => void;
  queuing: boolean;
  queueError: unknown;
}) {
  const lowCap = useLowCap();
  const bad = review.rows.filter((r) => r.problems.length > 0);
  const valid = review.rows.length - bad.length;
  const blocked = review.verdict?.decision === 'block';
  const memos = review.rows.some((r) => r.memo !== '');
  return (
    <section className="card" aria-label="Import review">
      <h2>{review.file}</h2>
      <p className="small muted">
        {review.bytes} bytes · SHA-256{' '}
        <span className="mono" data-testid="file-sha256">
          {review.sha256}
        </span>
      </p>
      {review.file_problems.map((p) => (
        <p key={p.message} className="field-error" role="alert">
          {p.line ? `Line ${p.line}: ` : ''}
          {p.message}
        </p>
      ))}
      {review.rows.length > 0 && (
        <p data-testid="import-summary">
          {review.rows.length} row{review.rows.length === 1 ? '' : 's'}: <strong>{valid} valid</strong>,{' '}
          <strong className={bad.length ? 'field-error' : ''}>{bad.length} with problems</strong>.
          {bad.length > 0 && ' Rows with problems are not queued; fix them in the file and import it again to send them.'}
        </p>
      )}
      {bad.length > 0 && (
        <table className="table compact" aria-label="Problems" data-testid="payout-problems">
          <thead>
            <tr>
              <th>Row</th>
              <th>Line</th>
              <th>Field</th>
              <th>Problem</th>
            </tr>
          </thead>
          <tbody>
            {bad.flatMap((r) =>
              r.problems.map((p, i) => (
                <tr key={`${r.row}:${i}`} data-row={r.row}>
                  <td className="num">{r.row}</td>
                  <td className="num">{r.line}</td>
                  <td>{FIELD_WORDS[p.field] ?? p.field}</td>
                  <td className="wrap">{p.message}</td>
                </tr>
              )),
            )}
          </tbody>
        </table>
      )}
      {review.rows.length > 0 && (
        <table className="table compact payout-rows" aria-label="Payouts" data-testid="payout-rows">
          <thead>
            <tr>
              <th>Row</th>
              <th>Currency, chain</th>
              <th>Address</th>
              {memos && <th>Memo</th>}
              <th className="num">Amount</th>
              <th className="num">Fee</th>
              <th>Reference</th>
              <th>Check</th>
              <th>Policy</th>
            </tr>
          </thead>
          <tbody>
            {review.rows.map((r) => (
              <tr key={r.row} className={r.problems.length ? 'bad' : ''} data-row={r.row}>
                <td className="num">{r.row}</td>
                <td>
                  {r.currency} {r.chain}
                  <LowCapFlag currency={r.currency} lowCap={lowCap} />
                </td>
                <td className="addr mono">{r.address}</td>
                {memos && <td className="memo">{r.memo}</td>}
                <td className="num">{r.amount}</td>
                <td className="num">{r.fee ?? ''}</td>
                <td className="addr">{r.reference}</td>
                <td>
                  {r.problems.length
                    ? r.duplicate_of
                      ? `duplicate of row ${r.duplicate_of}`
                      : `${r.problems.length} problem${r.problems.length > 1 ? 's' : ''}`
                    : 'ok'}
                </td>
                <td className="small">
                  {/* The rule of each row is in the batch's verdict below; where the money goes is said when it blocks the row. */}
                  {r.verdict?.decision ?? ''}
                  {r.verdict?.decision === 'block'
                    ? ` (${r.verdict.rule ?? 'no rule matched'}${r.destination_note ? `; destination ${r.destination_note}` : ''})`
                    : ''}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      {review.totals.length > 0 && (
        <table className="table compact" aria-label="Totals" data-testid="payout-totals">
          <thead>
            <tr>
              <th>Currency</th>
              <th className="num">Payouts</th>
              <th className="num">Total</th>
              <th className="num">Fees</th>
            </tr>
          </thead>
          <tbody>
            {review.totals.map((t) => (
              <tr key={t.currency}>
                <td>{t.currency}</td>
                <td className="num">{t.count}</td>
                <td className="num">{t.amount}</td>
                <td className="num">{t.fee}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      {review.batch_error && <ErrorPanel error={new Error(review.batch_error)} />}
      {review.verdict && (
        <>
          <h3>The policy on the batch as a whole</h3>
          <VerdictTable verdict={review.verdict} />
        </>
      )}
      {queueError !== null && queueError !== undefined && <ErrorPanel error={queueError} />}
      {valid > 0 && review.verdict && (
        <div className="actions">
          {!blocked && (
            <button type="button" className="primary" disabled={queuing} onClick={queue}>
              Send {valid} payout{valid === 1 ? '' : 's'} for signing
            </button>
          )}
        </div>
      )}
      {blocked && (
        <p className="field-error" role="alert">
          The policy blocks this batch: nothing can be sent. Each row's policy column says which rows it blocks.
        </p>
      )}
    </section>
  );
}
