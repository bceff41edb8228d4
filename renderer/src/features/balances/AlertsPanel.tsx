import { useDeskMutation, useDeskQuery } from '../../desk/hooks.ts';
import { percent, timeOf } from './format.ts';
import { subAccountHref } from './route.ts';
import type { AlertView } from '../../../../shared/balances.ts';

function describe(a: AlertView): string {
  if (a.kind === 'cross_risk') return `cross margin risk ${percent(a.value)} is below ${percent(a.threshold)} (110% is liquidation)`;
  if (a.kind === 'margin_risk') return `isolated margin ${a.subject} risk ${percent(a.value)} is below ${percent(a.threshold)}`;
  return `${a.subject} holdings ${a.value} are below the floor of ${a.threshold}`;
}

/** Alerts that need an operator: standing, or gone but not yet acknowledged. */
export function AlertsPanel({ uid }: { uid?: string }) {
  const alerts = useDeskQuery('balanceAlerts', {});
  const ack = useDeskMutation('balanceAlertAcknowledge');
  const list = (alerts.data ?? []).filter((a) => uid === undefined || a.uid === uid);
  if (!list.length) return null;
  return (
    <div className="card balance-alerts" role="alert" data-testid="balance-alerts">
      <h2>Balance alerts ({list.length})</h2>
      <ul>
        {list.map((a) => (
          <li key={a.id} data-testid={`alert-${a.uid}-${a.kind}`} className={a.cleared_at === null ? 'standing' : 'cleared'}>
            <a href={subAccountHref(a.uid)}>{a.uid}</a>: {describe(a)} · raised {timeOf(a.raised_at)}
            {a.cleared_at !== null && <> · cleared {timeOf(a.cleared_at)}</>}
            {a.acknowledged_at === null ? (
              <button type="button" onClick={() => ack.mutate({ id: a.id })}>
                Acknowledge
              </button>
            ) : (
              <span className="muted"> · acknowledged</span>
            )}
          </li>
        ))}
      </ul>
    </div>
  );
}
