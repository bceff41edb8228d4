import { LowCapFlag, useLowCap } from '../../components/LowCap.tsx';
import { useEffect, useState } from 'react';
import { ACCOUNT_KINDS, ACCOUNT_KIND_NAMES } from '../../../../shared/balances.ts';
import { ErrorPanel } from '../../components/ErrorPanel.tsx';
import { useDeskQuery } from '../../desk/hooks.ts';
import { FloorForm, ThresholdForm } from './AlertSettingsForms.tsx';
import { AlertsPanel } from './AlertsPanel.tsx';
import { ratioAsPercent } from '../../../../shared/risk.ts';
import { figure } from './format.ts';
import { FiguresAge } from './FiguresAge.tsx';
import { useBalancesProgress } from './hooks.ts';
import { transferHref } from './route.ts';
import { SubAccountTransfers } from './SubAccountTransfers.tsx';
import './balances.css';
import { ManagePanel } from '../subaccounts/index.ts';

/** Every field of a §2.8 record as the exchange sent it, nested objects flattened to a.b names. */
function Fields({ record, testid, lowCap }: { record: Record<string, unknown>; testid: string; lowCap?: ReadonlySet<string> }) {
  const rows: Array<[string, string]> = [];
  const walk = (prefix: string, v: unknown) => {
    if (v !== null && typeof v === 'object' && !Array.isArray(v))
      for (const [k, x] of Object.entries(v)) walk(prefix ? `${prefix}.${k}` : k, x);
    else rows.push([prefix, typeof v === 'string' ? v : JSON.stringify(v)]);
  };
  walk('', record);
  return (
    <dl className="kv" data-testid={testid}>
      {rows.map(([k, v]) => (
        <div key={k} style={{ display: 'contents' }}>
          <dt>
            {k}
            {lowCap && <LowCapFlag currency={k.slice(k.lastIndexOf('.') + 1)} lowCap={lowCap} />}
          </dt>
          <dd data-field={k}>{v}</dd>
        </div>
      ))}
    </dl>
  );
}

export function SubAccountDetail({ uid }: { uid: string }) {
  useBalancesProgress();
  const [waiting, setWaiting] = useState(false);
  // Cached figures until the exchange's arrive: the end of the load refetches, and so does this poll
  // (for a window whose event stream connected after that end).
  const detail = useDeskQuery('balancesSubAccount', { uid }, waiting ? { refetchIntervalMs: 1000 } : {});
  const d = detail.data;
  const lowCap = useLowCap();
  const cached = d?.source === 'cache' && d.error === null;
  useEffect(() => setWaiting(cached), [cached]);

  return (
    <section className="page balances">
      <header className="page-header">
        <h1 data-testid="sub-account-title">
          Sub-account {uid}
          {d?.name ? ` · ${d.name}` : ''}
        </h1>
        <a href={transferHref(uid)}>Transfer…</a>
        <a href="#/sub-accounts">All sub-accounts</a>
      </header>
      {detail.isError && <ErrorPanel error={detail.error} onRetry={() => void detail.refetch()} />}
      <AlertsPanel uid={uid} />
      <ManagePanel uid={uid} />
      {d && !d.row && (
        <p className="muted" role="status">
          {d.fetched_at === null ? 'Loading balances…' : 'The last load did not include this sub-account.'}
        </p>
      )}
      {d?.row && (
        <div className={`card${d.source === 'cache' ? ' cached' : ''}`}>
          <h2>Value (USDT)</h2>
          <p>
            <FiguresAge fetchedAt={d.fetched_at} source={d.source} error={d.error} testid="detail-fetched-at" />
          </p>
          {/* Its own box scrolls sideways when the window is too narrow for every column (focusable for the keyboard). */}
          <div className="table-scroll" role="region" aria-label="Values by account" tabIndex={0}>
            <table className="table">
              <thead>
                <tr>
                  {ACCOUNT_KINDS.map((k) => (
                    <th key={k} className="num">
                      {ACCOUNT_KIND_NAMES[k]}
                    </th>
                  ))}
                  <th className="num">Total</th>
                  <th className="num">Cross risk</th>
                  <th className="num">Margin risk</th>
                </tr>
              </thead>
              <tbody>
                <tr>
                  {ACCOUNT_KINDS.map((k) => (
                    <td key={k} className="num" data-testid={`detail-${k}`}>
                      {figure(d.row!.cells[k].value)}
                    </td>
                  ))}
                  <td className="num" data-testid="detail-total">
                    {figure(d.row.total)}
                  </td>
                  <td className="num" data-testid="detail-cross-risk">
                    {ratioAsPercent(d.row.cross_risk)}
                  </td>
                  <td className="num">{ratioAsPercent(d.row.margin_risk)}</td>
                </tr>
              </tbody>
            </table>
          </div>
        </div>
      )}
      {d && (
        <div className="card">
          <h2>Alerts for this sub-account</h2>
          <ThresholdForm uid={uid} current={d.risk_threshold} />
          <FloorForm uid={uid} floors={d.floors} />
        </div>
      )}
      <SubAccountTransfers uid={uid} />
      {d?.spot && (
        <div className="card">
          <h2>Spot</h2>
          <Fields record={d.spot} testid="detail-spot" lowCap={lowCap} />
        </div>
      )}
      {d &&
        d.margin.map((m, i) => (
          <div className="card" key={i}>
            <h2>Isolated margin {String(m.currency_pair ?? '')}</h2>
            <Fields record={m} testid={`detail-margin-${i}`} />
          </div>
        ))}
      {d &&
        Object.entries(d.futures).map(([s, f]) => (
          <div className="card" key={s}>
            <h2>Perpetual futures ({s.toUpperCase()})</h2>
            <Fields record={f} testid={`detail-futures-${s}`} />
          </div>
        ))}
      {d?.cross_margin && (
        <div className="card">
          <h2>Cross margin</h2>
          <Fields record={d.cross_margin} testid="detail-cross" />
        </div>
      )}
    </section>
  );
}
