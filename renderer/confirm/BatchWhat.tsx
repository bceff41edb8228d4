import type { ConfirmTicket } from '../../shared/confirm.ts';

// A batch ticket as the operator signs it: every row's exact wire body under its own id, the totals and
// where the batch comes from (a payout file's name and SHA-256, or a rebalance plan). The whole payload is
// signed, so what this table shows is what each row is sent as.

interface Payload {
  batch: string;
  title: string;
  source: Record<string, string>;
  rows: { ref: string; kind: string; body: Record<string, string | number>; note?: string; signer?: string }[];
  verdict: { decision: string; rule: string | null; approvals: number; drafter_may_approve: boolean };
  totals: { currency: string; amount: string; fee?: string }[];
}

/** The body's fields other than those every row has, in the order the core built them. */
function details(body: Record<string, string | number>): string {
  return Object.entries(body)
    .filter(([k]) => k !== 'amount' && k !== 'currency')
    .map(([k, v]) => `${k}=${String(v)}`)
    .join(' ');
}

/**
 * A small-balance conversion's wire body is the currency alone (§4.1 takes no amount): the amount shown
 * is the balance as reviewed, and what the account holds of it when the row is sent is converted.
 */
const CONVERSION_WORDS = (currency: string) =>
  `sent as {"currency": ["${currency}"]}: converts the whole ${currency} balance to GT (the amount is as reviewed)`;

export function BatchWhat({ t }: { t: ConfirmTicket }) {
  let b: Payload;
  try {
    b = JSON.parse(t.payload) as Payload;
  } catch {
    return <pre data-testid="signed-body">{t.payload}</pre>;
  }
  return (
    <div data-testid="signed-body">
      <dl>
        <dt>Batch</dt>
        <dd>
          {b.title} ({b.rows.length} rows)
        </dd>
        {Object.entries(b.source).map(([k, v]) => (
          <div key={k} style={{ display: 'contents' }}>
            <dt>{k === 'sha256' ? 'SHA-256' : k}</dt>
            <dd data-testid={`batch-source-${k}`}>{v}</dd>
          </div>
        ))}
        {t.profile && (
          <>
            <dt>Profile</dt>
            <dd>{t.profile}</dd>
          </>
        )}
        <dt>Totals</dt>
        <dd data-testid="batch-totals">{b.totals.map((x) => `${x.amount} ${x.currency}${x.fee ? ` (fees ${x.fee})` : ''}`).join('; ')}</dd>
      </dl>
      <p className="small">
        Policy for the batch as a whole: <strong>{b.verdict.decision}</strong> by rule {b.verdict.rule ?? '(none)'}
        {b.verdict.decision === 'require' && (
          <>
            {' '}
            — {b.verdict.approvals} approval(s){b.verdict.drafter_may_approve ? ', the drafter may be one' : ', none by the drafter'}
          </>
        )}
      </p>
      <div className="batch-rows">
        <table>
          <caption className="small">Each row is sent exactly as shown, under its id</caption>
          <thead>
            <tr>
              <th scope="col">#</th>
              <th scope="col">Kind</th>
              <th scope="col">Amount</th>
              <th scope="col">Details</th>
              <th scope="col">Id</th>
            </tr>
          </thead>
          <tbody>
            {b.rows.map((r, i) => (
              <tr key={r.ref} data-testid="batch-row">
                <td>{i + 1}</td>
                <td>{r.kind.replace(/_/g, ' ')}</td>
                <td>
                  {String(r.body.amount)} {String(r.body.currency)}
                </td>
                <td className="mono">
                  {details(r.body)}
                  {r.kind === 'small_balance_convert' ? CONVERSION_WORDS(String(r.body.currency)) : ''}
                  {r.signer ? ` — signed by sub-account ${r.signer}'s own key` : ''}
                  {r.note ? ` — ${r.note}` : ''}
                </td>
                <td className="mono small">{r.ref}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </div>
  );
}
