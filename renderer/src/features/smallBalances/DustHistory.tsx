import { useState } from 'react';
import type { DustAccount } from '../../../../shared/smallBalance.ts';
import { ErrorPanel } from '../../components/ErrorPanel.tsx';
import { LowCapFlag } from '../../components/LowCap.tsx';
import { saveText } from '../../components/saveText.ts';
import { useDesk } from '../../desk/DeskProvider.tsx';
import { useDeskQuery } from '../../desk/hooks.ts';
import { accountName } from './DustProgress.tsx';

const LIMITS = [20, 50, 100] as const;

/** One account's conversions, a page at a time (§8.1: 1 to 100, 100 by default), and all of them as CSV. */
export function DustHistory({ accounts, lowCap }: { accounts: DustAccount[]; lowCap: ReadonlySet<string> }) {
  const desk = useDesk();
  const [account, setAccount] = useState<DustAccount>(accounts[0] ?? 'main');
  const [page, setPage] = useState(1);
  const [limit, setLimit] = useState<number>(100);
  const [exported, setExported] = useState<string | null>(null);
  const [exportError, setExportError] = useState<unknown>(null);
  const history = useDeskQuery('dustHistory', { account, page, limit });
  const exportCsv = () => {
    setExportError(null);
    desk.call('dustHistoryCsv', { account }).then((r) => {
      saveText(r.csv, r.filename, 'text/csv');
      setExported(`${r.rows} conversion${r.rows === 1 ? '' : 's'} exported to ${r.filename}.`);
    }, setExportError);
  };
  return (
    <section className="card" aria-label="Conversion history">
      <h2>Conversion history</h2>
      <div className="actions">
        <label>
          Account{' '}
          <select
            aria-label="Account"
            value={account}
            onChange={(e) => {
              setAccount(e.target.value);
              setPage(1);
              setExported(null);
            }}
          >
            {accounts.map((a) => (
              <option key={a} value={a}>
                {accountName(a)}
              </option>
            ))}
          </select>
        </label>
        <label>
          Per page{' '}
          <select
            aria-label="Per page"
            value={limit}
            onChange={(e) => {
              setLimit(Number(e.target.value));
              setPage(1);
            }}
          >
            {LIMITS.map((l) => (
              <option key={l} value={l}>
                {l}
              </option>
            ))}
          </select>
        </label>
        <button type="button" onClick={exportCsv}>
          Export CSV
        </button>
      </div>
      {exportError !== null && <ErrorPanel error={exportError} />}
      {exported && (
        <p className="muted" role="status">
          {exported}
        </p>
      )}
      {history.isError && <ErrorPanel error={history.error} onRetry={() => void history.refetch()} />}
      {history.data &&
        (history.data.rows.length === 0 ? (
          <p className="muted">{page === 1 ? `No conversions of ${accountName(account).toLowerCase()}.` : 'No more conversions.'}</p>
        ) : (
          <table className="table compact" aria-label={`Conversions of ${accountName(account)}`} data-testid="dust-history">
            <thead>
              <tr>
                <th>Time (UTC)</th>
                <th>Currency</th>
                <th className="num">Amount</th>
                <th className="num">GT</th>
                <th>Id</th>
              </tr>
            </thead>
            <tbody>
              {history.data.rows.map((r) => (
                <tr key={r.id} data-currency={r.currency}>
                  <td className="mono">{new Date(r.create_time * 1000).toISOString().replace('T', ' ').slice(0, 19)}</td>
                  <td>
                    {r.currency}
                    <LowCapFlag currency={r.currency} lowCap={lowCap} />
                  </td>
                  <td className="num">{r.amount}</td>
                  <td className="num">{r.gt_amount}</td>
                  <td className="mono">{r.id}</td>
                </tr>
              ))}
            </tbody>
          </table>
        ))}
      <div className="actions">
        <button type="button" disabled={page === 1} onClick={() => setPage((p) => p - 1)}>
          Newer
        </button>
        <span>Page {page}</span>
        <button type="button" disabled={!history.data?.more} onClick={() => setPage((p) => p + 1)}>
          Older
        </button>
      </div>
    </section>
  );
}
