import { ErrorPanel } from '../../components/ErrorPanel.tsx';
import { useDeskQuery } from '../../desk/hooks.ts';
import { figure } from './format.ts';

const SHOWN = 50;

/**
 * The sub-account's main/sub transfers from the history cache (the history's transfersList, docs/histories.md; searched by uid
 * and kept to rows whose sub_account is exactly this one). Its withdrawals are not in the main account's
 * cache: they need the sub-account's own key.
 */
export function SubAccountTransfers({ uid }: { uid: string }) {
  const list = useDeskQuery('transfersList', { filters: { search: uid }, limit: 500 });
  const rows = (list.data?.rows ?? []).filter((r) => r.sub_account === uid);
  return (
    <div className="card">
      <h2>Transfers with the main account (history cache)</h2>
      {list.isError && <ErrorPanel error={list.error} onRetry={() => void list.refetch()} />}
      {list.data && rows.length === 0 && <p className="muted">None in the cache.</p>}
      {rows.length > 0 && (
        <table className="table compact" data-testid="sub-account-transfers">
          <thead>
            <tr>
              <th>Time (UTC)</th>
              <th>Direction</th>
              <th>Account</th>
              <th className="num">Amount</th>
              <th>Status</th>
            </tr>
          </thead>
          <tbody>
            {rows.slice(0, SHOWN).map((r) => (
              <tr key={r.key}>
                <td>{new Date(Number(r.timest) * 1000).toISOString().replace('T', ' ').slice(0, 19)}</td>
                <td>{r.direction === 'to' ? 'main → sub' : 'sub → main'}</td>
                <td>{r.sub_account_type || 'spot'}</td>
                <td className="num">
                  {figure(r.amount)} {r.currency}
                </td>
                <td>{r.status}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      <p className="muted small">
        {rows.length > SHOWN ? `The latest ${SHOWN} of ${rows.length}; ` : ''}all on the <a href="#/transfers">Transfers</a> page.
        Withdrawals made with this sub-account's own key are not in the main account's cache.
      </p>
    </div>
  );
}
