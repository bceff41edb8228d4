import Decimal from 'decimal.js';
import { lazy, memo, Suspense, useCallback, useEffect, useMemo, useRef } from 'react';
import { useSearchParams } from 'react-router';
import type { TotalBalance } from '../../../../shared/api/records.ts';
import { VALUATION_CURRENCIES, type ValuationCurrency } from '../../../../shared/api/valuation.ts';
import { groupDigits } from '../../../../shared/digits.ts';
import { ErrorPanel } from '../../components/ErrorPanel.tsx';
import { useAfterIdle } from '../../components/whenIdle.ts';
import { LastKnownNote } from '../../components/LastKnownNote.tsx';
import { useDeskQuery } from '../../desk/hooks.ts';
import { useLastKnown } from '../../desk/lastKnown.ts';
import { openingShown } from '../../app/openingReads.ts';
import { OverviewBalances, useAutoRefreshMs } from '../balances/index.ts';

const ACCOUNT_TYPE_NAMES: Record<string, string> = {
  spot: 'Spot',
  margin: 'Isolated margin',
  futures: 'Perpetual futures',
  cross_margin: 'Cross margin',
  delivery: 'Delivery',
  options: 'Options',
  finance: 'Earn',
  quant: 'Quant',
  warrant: 'Warrants',
  cbbc: 'CBBC',
  meme_box: 'Meme box',
  payment: 'Payment',
};

const TOTAL_FRESH_MS = 5_000;

// The chart library is most of the page's code: it comes after the figures, which never wait for it, and
// only once the window is idle, so that leaving the page at once never waits for the chart either.
const loadChart = () => import('./BreakdownChart.tsx');
const BreakdownChart = lazy(() => loadChart().then((m) => ({ default: m.BreakdownChart })));

function breakdown(data: TotalBalance) {
  return Object.entries(data.details)
    .map(([type, d]) => ({ type, name: ACCOUNT_TYPE_NAMES[type] ?? type, ...d }))
    .sort((a, b) => new Decimal(b.amount).cmp(a.amount));
}

/** The valuation currency lives in the address (`#/overview?currency=BTC`): reload and back keep it. */
function useCurrency(): [ValuationCurrency, (c: ValuationCurrency) => void] {
  const [search, setSearch] = useSearchParams();
  const asked = search.get('currency');
  const currency = (VALUATION_CURRENCIES as readonly string[]).includes(asked ?? '') ? (asked as ValuationCurrency) : 'USDT';
  return [currency, (c) => setSearch(c === 'USDT' ? {} : { currency: c })];
}

export default function OverviewPage() {
  const [currency, setCurrency] = useCurrency();
  const set = useRef(setCurrency);
  set.current = setCurrency;
  const choose = useCallback((c: ValuationCurrency) => set.current(c), []);
  return <OverviewFigures currency={currency} onCurrency={choose} />;
}

/**
 * The page below the address's currency, drawn again only when that currency or its own reads change.
 * The router's search-params hook draws its user again at every navigation, this page's own leaving
 * included: the figures and both charts were drawn again inside the click that left them (docs/performance.md §Opening the desk).
 */
const OverviewFigures = memo(function OverviewFigures({
  currency,
  onCurrency,
}: {
  currency: ValuationCurrency;
  onCurrency: (c: ValuationCurrency) => void;
}) {
  // A start asked for the total while this page's code loaded (prefetch.ts): a read of the last seconds is
  // not asked again on mount. The exchange itself serves this figure up to a minute old.
  const total = useDeskQuery('totalBalance', { currency }, { refetchIntervalMs: useAutoRefreshMs(), staleTimeMs: TOTAL_FRESH_MS });
  // Until the exchange answers (or while it does not), the figures of the last start, marked with their age.
  const shown = useLastKnown('totalBalance', { currency }, total);
  const data = shown.data;
  const rows = useMemo(() => (data ? breakdown(data) : []), [data]);
  const chartReady = useAfterIdle(loadChart);
  const done = data !== undefined || total.isError;
  useEffect(() => {
    if (done) requestAnimationFrame(openingShown);
  }, [done]);

  return (
    <section className="page">
      <header className="page-header">
        <h1 tabIndex={-1}>Overview</h1>
        <div className="segmented" role="group" aria-label="Valuation currency">
          {VALUATION_CURRENCIES.map((c) => (
            <button key={c} type="button" aria-pressed={c === currency} onClick={() => onCurrency(c)}>
              {c}
            </button>
          ))}
        </div>
      </header>

      <OverviewBalances currency={currency} totalAt={total.dataUpdatedAt} />
      {total.isPending && !data && (
        <p className="muted" role="status">
          Loading balances…
        </p>
      )}
      {total.isError && <ErrorPanel error={total.error} onRetry={() => void total.refetch()} />}
      {data && (
        <div data-last-known={shown.lastKnownAt === null ? undefined : 'true'}>
          <div className="card total">
            <div className="label">Total balance (main account)</div>
            <div className="figure" data-testid="total-balance">
              <span data-testid="total-amount">{groupDigits(data.total.amount)}</span>{' '}
              <span data-testid="total-currency">{data.total.currency}</span>
            </div>
            {shown.lastKnownAt !== null && <LastKnownNote at={shown.lastKnownAt} failed={total.isError} testId="total-last-known" />}
            <div className="muted small">
              {data.total.unrealised_pnl !== undefined && <>Unrealised PnL {groupDigits(data.total.unrealised_pnl)} · </>}
              {data.total.borrowed !== undefined && <>Borrowed {groupDigits(data.total.borrowed)} · </>}
              The exchange caches this figure for up to a minute.
            </div>
          </div>

          <div className="card">
            <h2>By account type</h2>
            {chartReady ? (
              <Suspense fallback={<div style={{ height: 260 }} aria-hidden="true" />}>
                <BreakdownChart rows={rows} currency={data.total.currency} />
              </Suspense>
            ) : (
              <div style={{ height: 260 }} aria-hidden="true" />
            )}
            <table className="table" data-testid="breakdown-table">
              <thead>
                <tr>
                  <th>Account type</th>
                  <th className="num">Amount ({data.total.currency})</th>
                  <th className="num">Unrealised PnL</th>
                  <th className="num">Borrowed</th>
                </tr>
              </thead>
              <tbody>
                {rows.map((r) => (
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
        </div>
      )}
    </section>
  );
});
