import { useQueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';
import { CartesianGrid, Line, LineChart, ResponsiveContainer, Tooltip, XAxis, YAxis } from 'recharts';
import { ACCOUNT_KINDS, ACCOUNT_KIND_NAMES } from '../../../../shared/balances.ts';
import type { ValuationCurrency } from '../../../../shared/api/records.ts';
import { ErrorPanel } from '../../components/ErrorPanel.tsx';
import { useDeskMutation, useDeskQuery } from '../../desk/hooks.ts';
import { deskKeys } from '../../desk/queryKeys.ts';
import { AlertsPanel } from './AlertsPanel.tsx';
import { figure, timeOf } from './format.ts';
import { useAutoRefreshMs } from './hooks.ts';
import './balances.css';

const AUTO_REFRESH_CHOICES = [0, 60, 300, 900, 3600];
/** The latest fetches listed under the chart, newest first. */
const RECENT_SHOWN = 5;

/** The Overview's balances: the total over time, a refresh, the auto-refresh setting, the main account's own accounts. */
export function OverviewBalances({ currency, totalAt }: { currency: ValuationCurrency; totalAt: number }) {
  const qc = useQueryClient();
  // Each fetch of the total leaves a snapshot in the core: the chart follows the total's query.
  useEffect(() => {
    if (totalAt) void qc.invalidateQueries({ queryKey: deskKeys.balancesSnapshots.all });
  }, [qc, totalAt]);
  const every = useAutoRefreshMs();
  const quote = currency === 'BTC' ? 'BTC' : 'USDT';
  const snapshots = useDeskQuery('balancesSnapshots', { currency }, { refetchIntervalMs: every });
  const main = useDeskQuery('balancesMain', { quote }, { refetchIntervalMs: every });
  const settings = useDeskQuery('balancesSettingsGet', {});
  const save = useDeskMutation('balancesSettingsSave');
  const last = snapshots.data?.at(-1);
  const recent = (snapshots.data ?? []).slice(-RECENT_SHOWN).reverse();

  const refresh = async () => {
    // The keys come from the factory: a hand-written ['totalBalance'] matched no cached read, and Refresh did nothing.
    await qc.invalidateQueries({ queryKey: deskKeys.totalBalance.all });
    await qc.invalidateQueries({ queryKey: deskKeys.balancesMain.all });
    await qc.invalidateQueries({ queryKey: deskKeys.balancesSnapshots.all });
  };

  return (
    <>
      <div className="row">
        <button type="button" onClick={() => void refresh()} data-testid="overview-refresh">
          Refresh
        </button>
        {/* Until the first snapshot is read the time is unknown: nothing is said rather than "fetched —". */}
        {last && (
          <span className="muted small" data-testid="total-fetched-at">
            Total fetched {timeOf(last.at)} (the exchange may serve it up to a minute old)
          </span>
        )}
        {settings.data && (
          <label className="inline">
            Auto-refresh
            <select
              aria-label="Auto-refresh interval"
              value={settings.data.auto_refresh_seconds}
              onChange={(e) => save.mutate({ ...settings.data, auto_refresh_seconds: Number(e.target.value) })}
            >
              {AUTO_REFRESH_CHOICES.map((s) => (
                <option key={s} value={s}>
                  {s === 0 ? 'off' : s < 3600 ? `every ${s / 60} min` : 'every hour'}
                </option>
              ))}
            </select>
          </label>
        )}
      </div>
      <AlertsPanel />
      <div className="card">
        <h2>Total over time ({currency})</h2>
        {snapshots.isError && <ErrorPanel error={snapshots.error} />}
        <div className="chart" data-testid="total-history-chart">
          <ResponsiveContainer width="100%" height={200}>
            {/* Numbers for drawing only; the figures shown as text stay exact strings. */}
            <LineChart data={(snapshots.data ?? []).map((s) => ({ at: s.at, value: Number(s.amount) }))}>
              <CartesianGrid strokeDasharray="3 3" stroke="#334155" />
              <XAxis
                dataKey="at"
                type="number"
                domain={['dataMin', 'dataMax']}
                stroke="#94a3b8"
                tickFormatter={(t: number) => new Date(t).toLocaleTimeString()}
              />
              <YAxis stroke="#94a3b8" width={90} domain={['auto', 'auto']} />
              <Tooltip labelFormatter={(t) => new Date(Number(t)).toLocaleString()} />
              <Line dataKey="value" stroke="#38bdf8" dot isAnimationActive={false} />
            </LineChart>
          </ResponsiveContainer>
        </div>
        <p className="muted small">{snapshots.data?.length ?? 0} snapshots, one at each fetch of the total.</p>
        {/* Two fetches a few seconds apart are one dot on a chart that spans days: the latest are listed, each on its own. */}
        {recent.length > 0 && (
          <table className="table compact" data-testid="recent-snapshots" aria-label="Latest fetches of the total">
            <thead>
              <tr>
                <th>Fetched</th>
                <th className="num">Total ({currency})</th>
              </tr>
            </thead>
            <tbody>
              {recent.map((s, i) => (
                <tr key={`${s.at}-${i}`}>
                  <td>{timeOf(s.at)}</td>
                  <td className="num">{figure(s.amount)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        )}
      </div>
      <div className="card">
        <h2>Main account's own accounts ({quote})</h2>
        {main.isError && <ErrorPanel error={main.error} onRetry={() => void main.refetch()} />}
        {main.data && (
          <>
            <p className="muted small">Read {timeOf(main.data.fetched_at)} from the per-account endpoints (real time).</p>
            <table className="table" data-testid="main-balances">
              <thead>
                <tr>
                  <th>Account</th>
                  <th>Holdings</th>
                  <th className="num">Value ({quote})</th>
                </tr>
              </thead>
              <tbody>
                {ACCOUNT_KINDS.map((k) => (
                  <tr key={k} data-kind={k}>
                    <td>{ACCOUNT_KIND_NAMES[k]}</td>
                    <td className="small">
                      {Object.entries(main.data.cells[k].amounts)
                        .map(([c, a]) => `${figure(a)} ${c}`)
                        .join(' · ') || '—'}
                      {main.data.cells[k].unpriced.length > 0 && (
                        <span className="muted"> (no price: {main.data.cells[k].unpriced.join(', ')})</span>
                      )}
                    </td>
                    <td className="num" data-testid={`main-${k}`}>
                      {figure(main.data.cells[k].value)}
                    </td>
                  </tr>
                ))}
                <tr>
                  <td>
                    <strong>Total</strong>
                  </td>
                  <td />
                  <td className="num">
                    <strong data-testid="main-total">{figure(main.data.total)}</strong>
                  </td>
                </tr>
              </tbody>
            </table>
          </>
        )}
      </div>
    </>
  );
}
