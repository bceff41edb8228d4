import { useCallback, useEffect, useRef, useState } from 'react';
import { useSearchParams } from 'react-router';
import { WITHDRAWAL_STATUSES } from '../../../../shared/api/statuses.ts';
import type { HistoryFilters, HistorySort, WithdrawalRow } from '../../../../shared/history.ts';
import { groupDigits } from '../../../../shared/digits.ts';
import { afterPaint } from '../../components/afterPaint.ts';
import { ErrorPanel } from '../../components/ErrorPanel.tsx';
import { useDesk } from '../../desk/DeskProvider.tsx';
import { SendPanel } from '../approvals/panels.ts';
import { downloadCsv } from './exportCsv.ts';
import { Filters } from './Filters.tsx';
import { HistoryTable, LongCell, type Column } from './HistoryTable.tsx';
import { useListedView } from './listedView.ts';
import { FIRST_SORT } from './queries.ts';
import { SyncLine } from './SyncLine.tsx';
import { StatusBadge } from './StatusBadge.tsx';
import { time } from './time.ts';
import { UnsentPanel } from './UnsentPanel.tsx';
import { WithdrawalDetail } from './WithdrawalDetail.tsx';
import './history.css';

// The list paints from code that loads no schema library: the forms above it (a new withdrawal, the
// acknowledgement of an outflow) check with zod and load when they are opened or have something to
// acknowledge, not before the rows nor during the first interactions with them (docs/performance.md §Long lists).

const COLUMNS: Column<WithdrawalRow>[] = [
  { id: 'time', header: 'Time (UTC)', width: 140, fixed: true, sort: 'time', render: (r) => time(r.timestamp) },
  {
    id: 'id',
    header: 'Id',
    width: 110,
    title: (r) => r.id,
    render: (r) => (
      <span className="mono" data-id={r.id}>
        {r.id}
      </span>
    ),
  },
  { id: 'status', header: 'Status', width: 230, min: 110, render: (r) => <StatusBadge status={r.status} kind="withdrawal" /> },
  { id: 'amount', header: 'Amount', width: 130, fixed: true, sort: 'amount', num: true, render: (r) => groupDigits(r.amount) },
  { id: 'currency', header: 'Currency', width: 64, fixed: true, render: (r) => r.currency },
  { id: 'chain', header: 'Chain', width: 64, fixed: true, render: (r) => r.chain },
  { id: 'address', header: 'Address', width: 240, render: (r) => <LongCell text={r.address} label="address" />, title: (r) => r.address },
  {
    id: 'flag',
    header: '',
    width: 100,
    render: (r) =>
      r.desk.unsent ? (
        <span className={`unsent-tag ${r.desk.unsent.state}`}>
          {r.desk.unsent.state === 'flagged' ? 'not sent by this desk' : 'acknowledged'}
        </span>
      ) : null,
  },
];

const rowKey = (r: WithdrawalRow) => r.id;

const URL_FILTERS = ['currency', 'status', 'chain', 'search'] as const;

function fromUrl(params: URLSearchParams): HistoryFilters {
  const f: HistoryFilters = {};
  for (const k of URL_FILTERS) {
    const v = params.get(k);
    if (v) f[k] = v;
  }
  return f;
}

/** The address part of a view's filters (its dates stay on the page). */
function addressOf(f: HistoryFilters): Record<string, string> {
  return Object.fromEntries(URL_FILTERS.flatMap((k) => (f[k] ? [[k, f[k]]] : [])));
}

/** The address follows a change at the latest this long after it, when its rows never came (an error). */
const ADDRESS_LATEST_MS = 1_000;

export function WithdrawalsPage() {
  const desk = useDesk();
  // Currency, status, chain and search live in the address (#/withdrawals?status=EXTPEND): back, forward
  // and reload keep the view; the date range stays on the page.
  const [params, setParams] = useSearchParams();
  // The filters the page shows are its own state (listedView.ts: the controls show a change at once, the
  // list once its rows are in); the address follows once the rows under them are painted. The router's
  // address update renders the whole window again (a transition) and the browser asks for the window's
  // icon again: done from the change itself, both came between the filter and its rows (docs/performance.md §Long lists:
  // `npm run bench -- ui` run twice each way, alternately, the filter's median went from 74.5 to 64 ms).
  // The address is written from the filters in force when it is written, so a second change made before
  // it is written (status, then currency) is kept with the first.
  const view = useListedView('withdrawals', () => ({ filters: fromUrl(params), sort: FIRST_SORT }));
  const { choose } = view;
  const { filters, sort } = view.chosen;
  const inForce = useRef(filters);
  inForce.current = filters;
  const urlPart = params.toString();
  /** The address part this page last wrote or followed. */
  const shownUrl = useRef(urlPart);
  useEffect(() => {
    // Back, forward or a link changed the address: the page follows it, keeping its dates.
    if (urlPart === shownUrl.current) return;
    shownUrl.current = urlPart;
    choose(({ filters: f, sort: s }) => ({
      filters: {
        ...(f.from !== undefined ? { from: f.from } : {}),
        ...(f.to !== undefined ? { to: f.to } : {}),
        ...fromUrl(params),
      },
      sort: s,
    }));
  }, [urlPart, params, choose]);
  const mounted = useRef(true);
  const latest = useRef<ReturnType<typeof setTimeout> | null>(null);
  useEffect(() => {
    mounted.current = true;
    return () => {
      // A page left before its address was written must not write it over the next page's.
      mounted.current = false;
      if (latest.current) clearTimeout(latest.current);
    };
  }, []);
  const writeAddress = useCallback(() => {
    if (!mounted.current) return;
    if (latest.current) clearTimeout(latest.current);
    latest.current = null;
    const inUrl = addressOf(inForce.current);
    const part = new URLSearchParams(inUrl).toString();
    if (part === shownUrl.current) return;
    shownUrl.current = part;
    setParams(inUrl, { replace: true });
  }, [setParams]);
  // Rows shown for filters since changed again wait for those: the address is written once, for the last.
  const onShown = useCallback(
    (f: HistoryFilters) => {
      afterPaint(() => {
        if (f === inForce.current) writeAddress();
      });
    },
    [writeAddress],
  );
  const [selected, setSelected] = useState<string | null>(null);
  const [exported, setExported] = useState<string | null>(null);
  const [exportError, setExportError] = useState<Error | null>(null);
  const onFilters = useCallback(
    (f: HistoryFilters) => {
      const next = {
        ...(f.from !== undefined ? { from: f.from } : {}),
        ...(f.to !== undefined ? { to: f.to } : {}),
        ...addressOf(f),
      };
      choose((v) => ({ filters: next, sort: v.sort }));
      if (latest.current) clearTimeout(latest.current);
      latest.current = setTimeout(writeAddress, ADDRESS_LATEST_MS);
    },
    [writeAddress, choose],
  );
  const onSort = useCallback((s: HistorySort) => choose((v) => ({ filters: v.filters, sort: s })), [choose]);
  const onSelect = useCallback((r: WithdrawalRow) => setSelected(r.id), []);
  return (
    <section aria-label="Withdrawals">
      <div className="page-header">
        <h1>Withdrawals</h1>
        <button
          type="button"
          onClick={() => {
            setExportError(null);
            downloadCsv(desk, 'withdrawals', { filters, sort }).then(
              (n) => setExported(`${n} rows exported`),
              (e: Error) => setExportError(e),
            );
          }}
        >
          Export CSV
        </button>
      </div>
      <SendPanel />
      <SyncLine />
      {exported && (
        <p className="muted small" role="status">
          {exported}
        </p>
      )}
      {exportError && <ErrorPanel error={exportError} />}
      <UnsentPanel />
      <Filters
        value={filters}
        onChange={onFilters}
        statuses={Object.keys(WITHDRAWAL_STATUSES)}
        showChain
        searchLabel="address, txid or order id"
      />
      <div className="history-layout">
        <HistoryTable
          kind="withdrawals"
          label="Withdrawal list"
          filters={view.listed.filters}
          sort={view.listed.sort}
          onSort={onSort}
          columns={COLUMNS}
          rowKey={rowKey}
          selected={selected}
          onSelect={onSelect}
          onShown={onShown}
        />
        {selected && <WithdrawalDetail key={selected} id={selected} onClose={() => setSelected(null)} />}
      </div>
    </section>
  );
}
