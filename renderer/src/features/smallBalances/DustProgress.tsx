import type { DustAccount, DustProgress } from '../../../../shared/smallBalance.ts';
import { ErrorPanel } from '../../components/ErrorPanel.tsx';
import { useDeskQuery } from '../../desk/hooks.ts';

export function accountName(account: DustAccount): string {
  return account === 'main' ? 'Main account' : `Sub-account ${account}`;
}

const STATE_WORDS: Record<DustProgress['state'], string> = {
  drafted: "Drafted: waiting for its drafter's signature in the confirmation window",
  waiting: 'Waiting for approvals in the confirmation window',
  approved: "Approved: each conversion goes out signed by its account's own key",
  sent: 'Every conversion was handed to the exchange',
  rejected: 'Rejected: nothing is converted',
  expired: 'Expired before its approvals were complete: nothing is converted; select the balances again if still wanted',
};

const OUTCOME_WORDS: Record<DustProgress['rows'][number]['outcome'], string> = {
  pending: 'to go',
  converted: 'converted',
  refused: 'refused',
  skipped: 'skipped',
  needs_attention: 'needs attention',
};

/** A conversion batch: its approvals, then each account's progress from its rows' journal states. */
export function DustProgressPanel({ batchRef }: { batchRef: string }) {
  const progress = useDeskQuery('dustProgress', { ref: batchRef });
  if (progress.isError) return <ErrorPanel error={progress.error} onRetry={() => void progress.refetch()} />;
  const p = progress.data;
  if (!p) return <p className="muted">Reading the conversion…</p>;
  const accounts = [...new Set(p.rows.map((r) => r.account))];
  return (
    <section className="card" aria-label="Conversion progress">
      <h2>{p.title}</h2>
      <p data-testid="batch-state">
        {STATE_WORDS[p.state]}
        {p.state === 'waiting'
          ? ` (${p.approved_by.length} of ${p.needed} signed)`
          : p.approved_by.length
            ? `; approved by ${p.approved_by.join(', ')}`
            : ''}
        .
      </p>
      {accounts.map((account) => {
        const rows = p.rows.filter((r) => r.account === account);
        const done = rows.filter((r) => r.outcome !== 'pending').length;
        const converted = rows.filter((r) => r.outcome === 'converted').length;
        return (
          <section key={account} aria-label={`Progress of ${accountName(account)}`} data-account={account}>
            <h3>{accountName(account)}</h3>
            <div className="payout-progress" role="status">
              <progress max={rows.length} value={done} aria-label={`Conversions of ${accountName(account)} finished`} />
              <span data-testid="account-progress">
                {converted} of {rows.length} converted{done > converted ? `, ${done - converted} not` : ''}
                {rows.length > done ? `, ${rows.length - done} to go` : ''}.
              </span>
            </div>
            <table className="table compact">
              <thead>
                <tr>
                  <th>Currency</th>
                  <th className="num">Amount</th>
                  <th>Outcome</th>
                  <th>History id</th>
                  <th>Why</th>
                </tr>
              </thead>
              <tbody>
                {rows.map((r) => (
                  <tr key={r.ref} data-outcome={r.outcome} data-currency={r.currency}>
                    <td>{r.currency}</td>
                    <td className="num">{r.amount}</td>
                    <td>{OUTCOME_WORDS[r.outcome]}</td>
                    <td className="mono">{r.exchange_id ?? ''}</td>
                    <td className="wrap small">{r.sentence ?? ''}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </section>
        );
      })}
    </section>
  );
}
