import { useDeskMutation, useDeskQuery } from '../../desk/hooks.ts';
import { alertSentence } from '../../../../shared/risk.ts';
import { timeOf } from './format.ts';
import { subAccountHref } from './route.ts';

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
            <a href={subAccountHref(a.uid)}>{a.uid}</a>: {alertSentence(a)} · raised {timeOf(a.raised_at)}
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
