import { LowCapFlag, useLowCap } from '../../components/LowCap.tsx';
import { useQueryClient } from '@tanstack/react-query';
import { lazy, Suspense, useEffect } from 'react';
import { ACCOUNT_KINDS, ACCOUNT_KIND_NAMES } from '../../../../shared/accountKinds.ts';
import type { ValuationCurrency } from '../../../../shared/api/records.ts';
import { ErrorPanel } from '../../components/ErrorPanel.tsx';
import { useAfterIdle } from '../../components/whenIdle.ts';
import { LastKnownNote } from '../../components/LastKnownNote.tsx';
import { useDeskMutation, useDeskQuery } from '../../desk/hooks.ts';
import { useLastKnown } from '../../desk/lastKnown.ts';
import { deskKeys } from '../../desk/queryKeys.ts';
import { AlertsPanel } from './AlertsPanel.tsx';
import { figure, timeOf } from './format.ts';
import { useAutoRefreshMs } from './hooks.ts';
import './balances.css';

const loadChart = () => import('./TotalHistoryChart.tsx');
const TotalHistoryChart = lazy(loadChart);

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
  const lowCap = useLowCap();
  const shownMain = useLastKnown('balancesMain', { quote }, main);
  const mainData = shownMain.data;
  const settings = useDeskQuery('balancesSettingsGet', {});
  const save = useDeskMutation('balancesSettingsSave');
  const last = snapshots.data?.at(-1);
  const recent = (snapshots.data ?? []).slice(-RECENT_SHOWN).reverse();
  // The chart's code and drawing wait for an idle window: a click away from the Overview never waits for them.
  const chartReady = useAfterIdle(loadChart);

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
          {chartReady ? (
            <Suspense fallback={<div style={{ height: 200 }} aria-hidden="true" />}>
              <TotalHistoryChart snapshots={snapshots.data ?? []} />
            </Suspense>
          ) : (
            <div style={{ height: 200 }} aria-hidden="true" />
          )}
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
        {mainData && (
          <div data-last-known={shownMain.lastKnownAt === null ? undefined : 'true'}>
            {shownMain.lastKnownAt !== null ? (
              <LastKnownNote at={shownMain.lastKnownAt} failed={main.isError} testId="main-last-known" />
            ) : (
              <p className="muted small">Read {timeOf(mainData.fetched_at)} from the per-account endpoints (real time).</p>
            )}
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
                      {Object.entries(mainData.cells[k].amounts).map(([c, a], i) => (
                        <span key={c}>
                          {i > 0 ? ' · ' : ''}
                          {figure(a)} {c}
                          <LowCapFlag currency={c} lowCap={lowCap} />
                        </span>
                      ))}
                      {Object.keys(mainData.cells[k].amounts).length === 0 && '—'}
                      {mainData.cells[k].unpriced.length > 0 && (
                        <span className="muted"> (no price: {mainData.cells[k].unpriced.join(', ')})</span>
                      )}
                    </td>
                    <td className="num" data-testid={`main-${k}`}>
                      {figure(mainData.cells[k].value)}
                    </td>
                  </tr>
                ))}
                <tr>
                  <td>
                    <strong>Total</strong>
                  </td>
                  <td />
                  <td className="num">
                    <strong data-testid="main-total">{figure(mainData.total)}</strong>
                  </td>
                </tr>
              </tbody>
            </table>
          </div>
        )}
      </div>
    </>
  );
}
