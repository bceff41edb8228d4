import Decimal from 'decimal.js';
import { Bar, BarChart, CartesianGrid, ResponsiveContainer, Tooltip, XAxis, YAxis } from 'recharts';
import { VALUATION_CURRENCIES, type TotalBalance } from '../../../shared/api/records.ts';
import { groupDigits } from '../../../shared/money.ts';
import { ErrorPanel } from '../components/ErrorPanel.tsx';
import { OverviewBalances, useAutoRefreshMs } from '../features/balances/index.ts';
import { useDeskQuery } from '../hooks/useDeskQuery.ts';
import { useUi } from '../state/ui.ts';

const ACCOUNT_TYPE_NAMES: Record<string, string> = {
  spot: 'Spot', margin: 'Isolated margin', futures: 'Perpetual futures', cross_margin: 'Cross margin',
  delivery: 'Delivery', options: 'Options', finance: 'Earn', quant: 'Quant', warrant: 'Warrants', cbbc: 'CBBC',
  meme_box: 'Meme box', payment: 'Payment',
};

const compactFormat = new Intl.NumberFormat('en', { notation: 'compact', maximumFractionDigits: 1 });
const compact = (v: number) => compactFormat.format(v);

function breakdown(data: TotalBalance) {
  return Object.entries(data.details)
    .map(([type, d]) => ({ type, name: ACCOUNT_TYPE_NAMES[type] ?? type, ...d }))
    .sort((a, b) => new Decimal(b.amount).cmp(a.amount));
}

export function Overview() {
  const currency = useUi((s) => s.valuationCurrency);
  const setCurrency = useUi((s) => s.setValuationCurrency);
  const total = useDeskQuery('totalBalance', { currency }, { refetchIntervalMs: useAutoRefreshMs() });

  return (
    <section className="page">
      <header className="page-header">
        <h1>Overview</h1>
        <div className="segmented" role="group" aria-label="Valuation currency">
          {VALUATION_CURRENCIES.map((c) => (
            <button key={c} type="button" aria-pressed={c === currency} onClick={() => setCurrency(c)}>{c}</button>
          ))}
        </div>
      </header>

      <OverviewBalances currency={currency} totalAt={total.dataUpdatedAt} />
      {total.isPending && <p className="muted" role="status">Loading balances…</p>}
      {total.isError && <ErrorPanel error={total.error} onRetry={() => void total.refetch()} />}
      {total.data && (
        <>
          <div className="card total">
            <div className="label">Total balance (main account)</div>
            <div className="figure" data-testid="total-balance">
              <span data-testid="total-amount">{groupDigits(total.data.total.amount)}</span>{' '}
              <span data-testid="total-currency">{total.data.total.currency}</span>
            </div>
            <div className="muted small">
              {total.data.total.unrealised_pnl !== undefined && <>Unrealised PnL {groupDigits(total.data.total.unrealised_pnl)} · </>}
              {total.data.total.borrowed !== undefined && <>Borrowed {groupDigits(total.data.total.borrowed)} · </>}
              The exchange caches this figure for up to a minute.
            </div>
          </div>

          <div className="card">
            <h2>By account type</h2>
            <div className="chart" data-testid="breakdown-chart">
              <ResponsiveContainer width="100%" height={260}>
                {/* The chart needs numbers to draw bars; amounts shown as text stay exact strings. */}
                <BarChart layout="vertical" data={breakdown(total.data).map((r) => ({ name: r.name, value: Number(r.amount) }))}>
                  <CartesianGrid strokeDasharray="3 3" stroke="#334155" />
                  <XAxis type="number" stroke="#94a3b8" tickFormatter={compact} />
                  <YAxis type="category" dataKey="name" stroke="#94a3b8" width={140} />
                  <Tooltip formatter={(v) => [String(v), total.data.total.currency]} />
                  <Bar dataKey="value" fill="#38bdf8" isAnimationActive={false} />
                </BarChart>
              </ResponsiveContainer>
            </div>
            <table className="table" data-testid="breakdown-table">
              <thead>
                <tr><th>Account type</th><th className="num">Amount ({total.data.total.currency})</th><th className="num">Unrealised PnL</th><th className="num">Borrowed</th></tr>
              </thead>
              <tbody>
                {breakdown(total.data).map((r) => (
                  <tr key={r.type} data-account-type={r.type}>
                    <td>{r.name}</td>
                    <td className="num">{groupDigits(r.amount)}</td>
                    <td className="num">{r.unrealised_pnl !== undefined ? groupDigits(r.unrealised_pnl) : '—'}</td>
                    <td className="num">{r.borrowed !== undefined ? groupDigits(r.borrowed) : '—'}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        </>
      )}
    </section>
  );
}
