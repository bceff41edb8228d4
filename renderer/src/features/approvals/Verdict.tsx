import type { Verdict } from '../../../../shared/api/policy.ts';

/**
 * The policy's verdict: which rule decided, in words; each rule's match, in the policy's own terms (kinds,
 * currencies), kept under "Details".
 */
export function VerdictTable({ verdict }: { verdict: Verdict }) {
  const head =
    verdict.decision === 'block'
      ? `Blocked${verdict.rule ? ` by rule ${verdict.rule}` : ': no rule matched'}`
      : verdict.decision === 'allow'
        ? `Allowed by rule ${verdict.rule}`
        : `Needs ${verdict.approvals} approval${verdict.approvals > 1 ? 's' : ''} (rule ${verdict.rule}${verdict.drafter_may_approve ? ', the drafter may approve' : ', not by the drafter'})`;
  return (
    <div data-testid="verdict">
      <p>
        <strong className={verdict.decision === 'block' ? 'field-error' : ''}>{head}</strong>
      </p>
      <details className="raw-details">
        <summary>Details</summary>
        <table className="table compact">
          <thead>
            <tr>
              <th>Rule</th>
              <th>Matched</th>
              <th>Why</th>
            </tr>
          </thead>
          <tbody>
            {verdict.rules.map((r) => (
              <tr key={r.rule}>
                <td className="mono">{r.rule}</td>
                <td>{r.matched ? 'yes' : 'no'}</td>
                <td className="small">{r.why.join('; ')}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </details>
    </div>
  );
}
