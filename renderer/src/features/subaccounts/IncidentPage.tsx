import type { IncidentRun } from '../../../../shared/incident.ts';
import { groupDigits } from '../../../../shared/money.ts';
import { ErrorPanel } from '../../components/ErrorPanel.tsx';
import { useDeskMutation, useDeskQuery } from '../../desk/hooks.ts';
import { subAccountHref } from './route.ts';

// One page to contain a compromised sub-account: what it holds and does now (balances, open orders,
// pending withdrawals, the last 24 hours of transfers), and the containment sequence (disable its keys,
// cancel its orders, sweep it to the main account, lock it) reviewed here and approved as ONE batch under a
// single confirmation. Its steps run in order, each exactly once; a restarted desk finishes what is left.

const STEP_WORDS: Record<IncidentRun['steps'][number]['state'], string> = {
  pending: 'waiting',
  running: 'under way',
  done: 'done',
  failed: 'failed',
  needs_attention: 'needs your attention',
  skipped: 'skipped',
};

const RUN_WORDS: Record<IncidentRun['state'], string> = {
  to_sign: 'Waiting for a signature in the confirmation window',
  waiting: 'Waiting for more approvals',
  running: 'Running',
  held: 'Held',
  finished: 'Finished',
  rejected: 'Rejected',
  expired: 'Expired unapproved',
};

function Runs({ uid }: { uid: string }) {
  const runs = useDeskQuery('subAccountIncidentRuns', { user_id: uid }, { refetchIntervalMs: 2000 });
  if (runs.isError) return <ErrorPanel error={runs.error} onRetry={() => void runs.refetch()} />;
  if (!runs.data?.length) return null;
  return (
    <section className="panel" aria-label="Containment progress">
      <h2>Containment progress</h2>
      {runs.data.map((r) => (
        <div key={r.ref} data-testid={`incident-run-${r.ref}`}>
          <p>
            <strong data-testid="incident-run-state">{RUN_WORDS[r.state]}</strong>
            {r.held ? ` — ${r.held}` : ''}
          </p>
          <ol className="steps">
            {r.steps.map((s) => (
              <li key={s.ref} data-state={s.state}>
                {s.summary}: <span data-testid="step-state">{STEP_WORDS[s.state]}</span>
                {s.reason ? <span className="small muted"> ({s.reason})</span> : null}
              </li>
            ))}
          </ol>
        </div>
      ))}
    </section>
  );
}

export function IncidentPage({ uid }: { uid: string }) {
  const view = useDeskQuery('subAccountIncident', { user_id: uid });
  const draft = useDeskMutation('subAccountIncidentDraft');
  const v = view.data;
  return (
    <section className="page incident">
      <header className="page-header">
        <h1>
          Incident: sub-account {uid}
          {v?.login_name ? ` · ${v.login_name}` : ''}
        </h1>
        <a href={subAccountHref(uid)}>Sub-account page</a>
      </header>
      {view.isError && <ErrorPanel error={view.error} onRetry={() => void view.refetch()} />}
      {!v && !view.isError && <p className="muted">Reading the sub-account at the exchange…</p>}
      {v && (
        <>
          <p data-testid="incident-lock-state">
            {v.locked ? 'Locked at the exchange.' : 'Not locked.'} {v.desk_key ? `The desk holds its key ${v.desk_key}.` : ''}
          </p>
          {v.unread && <p className="notice">{v.unread}</p>}
          <div className="panels">
            <section className="panel" aria-label="Balances">
              <h2>Balances (spot)</h2>
              {v.balances.length === 0 ? (
                <p className="muted">Nothing.</p>
              ) : (
                <table className="grid" data-testid="incident-balances">
                  <thead>
                    <tr>
                      <th>Currency</th>
                      <th>Available</th>
                      <th>In orders</th>
                    </tr>
                  </thead>
                  <tbody>
                    {v.balances.map((b) => (
                      <tr key={b.currency}>
                        <td>{b.currency}</td>
                        <td>{groupDigits(b.available)}</td>
                        <td>{groupDigits(b.locked)}</td>
                      </tr>
                    ))}
                  </tbody>
                </table>
              )}
            </section>
            <section className="panel" aria-label="Open orders">
              <h2>Open orders</h2>
              {v.open_orders === null ? (
                <p className="muted">Not readable without the sub-account's key.</p>
              ) : v.open_orders.length === 0 ? (
                <p className="muted">None.</p>
              ) : (
                <ul data-testid="incident-orders">
                  {v.open_orders.map((o) => (
                    <li key={o.id}>
                      {o.side} {o.amount} {o.currency_pair} at {o.price}
                    </li>
                  ))}
                </ul>
              )}
            </section>
            <section className="panel" aria-label="Pending withdrawals">
              <h2>Pending withdrawals</h2>
              {v.withdrawals === null ? (
                <p className="muted">Not readable without the sub-account's key.</p>
              ) : v.withdrawals.length === 0 ? (
                <p className="muted">None.</p>
              ) : (
                <ul>
                  {v.withdrawals.map((w) => (
                    <li key={w.id}>
                      {w.amount} {w.currency} to {w.address}: {w.status}
                    </li>
                  ))}
                </ul>
              )}
            </section>
            <section className="panel" aria-label="Transfers, last 24 hours">
              <h2>Transfers, last 24 hours</h2>
              {v.transfers.length === 0 ? (
                <p className="muted">None.</p>
              ) : (
                <ul data-testid="incident-transfers">
                  {v.transfers.map((t, i) => (
                    <li key={i}>
                      {new Date(t.timest * 1000).toISOString().slice(11, 19)} {t.direction === 'to' ? 'in from main' : 'out to main'}{' '}
                      {t.amount} {t.currency} ({t.status})
                    </li>
                  ))}
                </ul>
              )}
            </section>
          </div>
          <section className="panel" aria-label="Containment">
            <h2>Contain it: one reviewed sequence, one confirmation</h2>
            <p className="small muted">
              Runs in this order, each step exactly once. The lock comes after the sweep because the exchange refuses transfers out of a
              locked sub-account; the desk's own key, used to cancel the orders, is disabled last.
            </p>
            <ol data-testid="incident-steps">
              {v.steps.map((s, i) => (
                <li key={i}>{s.summary}</li>
              ))}
            </ol>
            {draft.isError && <ErrorPanel error={draft.error} />}
            {v.steps.length === 0 ? (
              <p data-testid="nothing-to-contain">Locked, and no key left: nothing is left to contain.</p>
            ) : draft.data ? (
              <p role="status">{draft.data.title}: sign it in the confirmation window.</p>
            ) : (
              <button type="button" className="danger" disabled={draft.isPending} onClick={() => draft.mutate({ user_id: uid })}>
                Contain: send for signing
              </button>
            )}
          </section>
        </>
      )}
      <Runs uid={uid} />
    </section>
  );
}
