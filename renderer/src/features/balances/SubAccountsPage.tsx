import { useMutation } from '@tanstack/react-query';
import { UnreadNotice } from '../../components/UnreadNotice.tsx';
import { unreadText } from '../../../../shared/unreadText.ts';
import { createColumnHelper, flexRender, getCoreRowModel, useReactTable } from '@tanstack/react-table';
import { useVirtualizer } from '@tanstack/react-virtual';
import { withWords } from '../../components/withWords.ts';
import { useAfterIdle } from '../../components/whenIdle.ts';
import { lazy, Suspense, useEffect, useLayoutEffect, useMemo, useRef, useState } from 'react';
import type { QuoteCurrency } from '../../../../shared/balances.ts';
import { ACCOUNT_KINDS, ACCOUNT_KIND_NAMES, MATRIX_SORT_KEYS, QUOTE_CURRENCIES } from '../../../../shared/accountKinds.ts';
import { afterPaint } from '../../components/afterPaint.ts';
import { ErrorPanel } from '../../components/ErrorPanel.tsx';
import { saveText } from '../../components/saveText.ts';
import { useDesk } from '../../desk/DeskProvider.tsx';
import { AlertsPanel } from './AlertsPanel.tsx';
import { ratioAsPercent } from '../../../../shared/risk.ts';
import { figure } from './format.ts';
import { FiguresAge } from './FiguresAge.tsx';
import { useBalancesProgress } from './hooks.ts';
import { incidentHref, subAccountHref, transferHref } from './route.ts';
import { useDeskQuery } from '../../desk/hooks.ts';
import { BLOCK, useMatrixBlocks } from './useMatrixBlocks.ts';
import { FIRST_VIEW } from './matrixQuery.ts';
import { openingFigures, openingShown } from '../../app/openingReads.ts';
import './balances.css';
import { OrdersLink } from '../orders/index.ts';
import { DeskError } from '../../desk/desk.ts';

// Forms (a new sub-account, locking one) load after the matrix's first paint, not before it (docs/performance.md §Opening the desk).
// The forms check with zod: their code loads once the opening figures have been shown (or said why not)
// and the window is idle, so that it never races the matrix's first paint (e2e/balancesRestart.e2e.ts).
const loadForms = () => openingFigures().then(() => withWords(import('../subaccounts/index.ts')));
const NewSubAccount = lazy(() => loadForms().then((m) => ({ default: m.NewSubAccount })));
const LockControl = lazy(() => loadForms().then((m) => ({ default: m.LockControl })));

type SortKey = (typeof MATRIX_SORT_KEYS)[number];
const ROW_PX = 34;
/** The rows' scrolling box: its height is set here, so that the first render draws the rows it will show. */
const BODY_PX = 560;
/**
 * Rows drawn beyond the view on each side, for a smooth scroll: none until the first figures are painted.
 * In a window's first seconds the rows are most of the first render's work; the twelve on each side that
 * nobody sees yet took a seventh of the window's processor before the matrix showed (docs/performance.md §Opening the desk:
 * `npm run bench -- ui-subaccounts` from a new process, CPU profiles of the page, 265 against 309 ms).
 */
const OVERSCAN = 12;
const column = createColumnHelper<number>();

export function SubAccountsPage() {
  const desk = useDesk();
  // The view the window asked for before the page mounted (main.tsx): the same, so that its answer is used.
  const [quote, setQuote] = useState<QuoteCurrency>(FIRST_VIEW.quote);
  const [search, setSearch] = useState<string>(FIRST_VIEW.search);
  const [hideSmall, setHideSmall] = useState(false);
  const [smallBelow, setSmallBelow] = useState('1');
  const [sort, setSort] = useState<{ key: SortKey; desc: boolean }>({ key: FIRST_VIEW.sort, desc: FIRST_VIEW.desc });
  const progress = useBalancesProgress();
  const scroller = useRef<HTMLDivElement>(null);
  const [visibleBlocks, setVisibleBlocks] = useState<number[]>([0]);
  const [overscan, setOverscan] = useState(0);

  const query = {
    quote,
    search,
    sort: sort.key,
    desc: sort.desc,
    hide_below: hideSmall && /^\d+(\.\d{1,8})?$/.test(smallBelow) ? smallBelow : null,
  };
  const matrix = useMatrixBlocks(query, visibleBlocks);
  // Lock states come from the exchange's sub-account list, apart from the balances load.
  const managed = useDeskQuery('subAccountsManaged', {});
  const formsReady = useAfterIdle(loadForms);
  const locked = new Set((managed.data ?? []).filter((a) => a.locked).map((a) => a.user_id));
  const profile = useDeskQuery('profileCurrent', {});
  const keyed = useMemo(() => new Set(profile.data?.sub_keys.map((k) => k.uid)), [profile.data]);
  const page = matrix.first;
  const count = page?.total_rows ?? 0;

  const virtualizer = useVirtualizer({
    count,
    getScrollElement: () => scroller.current,
    estimateSize: () => ROW_PX,
    overscan,
    // The rows of the first commit: the box's own height until it is measured, so that figures already asked
    // for (a start on this page) are drawn by the first render. The window's height stood in before, and its
    // measure drew every row again (docs/performance.md §Opening the desk).
    initialRect: { width: 0, height: BODY_PX },
  });
  const items = virtualizer.getVirtualItems();
  const firstBlock = items.length ? Math.floor(items[0]!.index / BLOCK) : 0;
  const lastBlock = items.length ? Math.floor(items[items.length - 1]!.index / BLOCK) : 0;
  useEffect(() => {
    const want = Array.from({ length: lastBlock - firstBlock + 1 }, (_, i) => firstBlock + i);
    setVisibleBlocks((had) => (had.join() === want.join() ? had : want));
  }, [firstBlock, lastBlock]);

  const refresh = useMutation({ mutationFn: () => desk.call('balancesRefresh', {}) });
  const exportCsv = useMutation({
    mutationFn: () => desk.call('balancesExport', { ...query, offset: 0, limit: 1000 }),
    onSuccess: ({ filename, csv }) => saveText(csv, filename, 'text/csv'),
  });

  const columns = [
    column.display({
      id: 'uid',
      header: 'Sub-account',
      cell: (c) => {
        const r = matrix.rowAt(c.row.original);
        return r ? (
          <>
            <a href={transferHref(r.uid)} className="row-action" aria-label={`Transfer… (sub-account ${r.uid})`}>
              Transfer…
            </a>{' '}
            <a href={subAccountHref(r.uid)}>{r.uid}</a>{' '}
            <span className="muted who-name" title={r.name}>
              {r.name}
            </span>{' '}
            <OrdersLink uid={r.uid} keyed={keyed} />{' '}
            {locked.has(r.uid) && (
              <strong className="badge bad" data-testid={`locked-${r.uid}`}>
                Locked
              </strong>
            )}{' '}
            {managed.data && formsReady && (
              <Suspense fallback={null}>
                <LockControl uid={r.uid} locked={locked.has(r.uid)} compact />
              </Suspense>
            )}{' '}
            <a href={incidentHref(r.uid)} className="row-action">
              Incident…
            </a>
          </>
        ) : (
          '…'
        );
      },
    }),
    ...ACCOUNT_KINDS.map((k) =>
      column.display({
        id: k,
        header: ACCOUNT_KIND_NAMES[k],
        cell: (c) => {
          const r = matrix.rowAt(c.row.original);
          return r ? (
            <span
              title={Object.entries(r.cells[k].amounts)
                .map(([cur, a]) => `${a} ${cur}`)
                .join('\n')}
            >
              <span data-testid={`cell-${r.uid}-${k}`}>{figure(r.cells[k].value)}</span>
              {r.cells[k].unpriced.length > 0 && <sup title={`no price for ${r.cells[k].unpriced.join(', ')}`}>*</sup>}
            </span>
          ) : (
            ''
          );
        },
      }),
    ),
    column.display({
      id: 'total',
      header: 'Total',
      cell: (c) => {
        const r = matrix.rowAt(c.row.original);
        return r ? <strong data-testid={`row-total-${r.uid}`}>{figure(r.total)}</strong> : '';
      },
    }),
    column.display({
      id: 'cross_risk',
      header: 'Cross risk',
      cell: (c) => {
        const r = matrix.rowAt(c.row.original);
        return r ? <span data-testid={`risk-${r.uid}`}>{ratioAsPercent(r.cross_risk)}</span> : '';
      },
    }),
    column.display({
      id: 'margin_risk',
      header: 'Margin risk',
      cell: (c) => {
        const r = matrix.rowAt(c.row.original);
        return r ? ratioAsPercent(r.margin_risk) : '';
      },
    }),
  ];
  // The table's rows are those in view only (each holds its position in the matrix): a row model of every
  // sub-account was built again at each render, 1,000 rows for the 40 drawn (docs/performance.md §Opening the desk).
  const first = items[0]?.index ?? 0;
  const inView = useMemo(() => Array.from({ length: items.length }, (_, i) => first + i), [first, items.length]);
  const table = useReactTable({ data: inView, columns, getCoreRowModel: getCoreRowModel() });
  const tableRows = table.getRowModel().rows;

  // The benchmark's finish line: real figures painted for the first complete page (cached or the exchange's).
  // Asked for at the commit, the frame's callback runs in the frame that paints those rows; asked for after
  // the passive effects, it ran a frame later (docs/performance.md §Opening the desk: 35 to 70 ms after the paint in a trace).
  const painted = page?.status.state === 'ready' && count > 0 && matrix.rowAt(0) !== undefined;
  const source = page?.status.source ?? null;
  useLayoutEffect(() => {
    if (painted)
      requestAnimationFrame(() => {
        performance.mark('subaccounts:painted', { detail: { source } });
        openingShown();
      });
  }, [painted, page, source]);
  // Or said why not: what waits for the opening figures (the forms' code) need not wait any longer.
  const failed = Boolean(page?.status.error) || matrix.error !== null;
  useEffect(() => {
    if (failed) openingShown();
  }, [failed]);
  // After the frame that paints the first figures (or the reason there are none).
  useEffect(() => {
    if (!painted && !failed) return;
    return afterPaint(() => setOverscan(OVERSCAN));
  }, [painted, failed]);

  const status = page?.status;
  const loading = status?.state === 'loading' || (progress !== null && !progress.done);
  const shownProgress = progress ?? (status ? { loaded: status.loaded, total: status.total } : null);
  const sortBy = (key: string) => {
    if (!(MATRIX_SORT_KEYS as readonly string[]).includes(key)) return;
    setSort((s) => ({ key: key as SortKey, desc: s.key === key ? !s.desc : key !== 'uid' && key !== 'name' }));
  };

  return (
    <section className="page balances">
      <header className="page-header">
        <h1>Sub-accounts</h1>
        <div className="segmented" role="group" aria-label="Quote currency">
          {QUOTE_CURRENCIES.map((c) => (
            <button key={c} type="button" aria-pressed={c === quote} onClick={() => setQuote(c)}>
              {c}
            </button>
          ))}
        </div>
        {formsReady && (
          <Suspense fallback={null}>
            <NewSubAccount />
          </Suspense>
        )}
      </header>
      <AlertsPanel />
      <div className="row">
        <input
          type="search"
          placeholder="Search uid or name"
          aria-label="Search sub-accounts"
          value={search}
          maxLength={64}
          onChange={(e) => setSearch(e.target.value)}
        />
        <label className="inline">
          <input type="checkbox" checked={hideSmall} onChange={(e) => setHideSmall(e.target.checked)} /> Hide totals below
        </label>
        <input
          aria-label="Small balance threshold"
          className="narrow"
          value={smallBelow}
          onChange={(e) => setSmallBelow(e.target.value.trim())}
        />{' '}
        {quote}
        <button type="button" onClick={() => refresh.mutate()} disabled={loading} data-testid="matrix-refresh">
          Refresh
        </button>
        <button type="button" onClick={() => exportCsv.mutate()} disabled={!count}>
          Export CSV
        </button>
        <FiguresAge
          fetchedAt={status?.fetched_at ?? null}
          source={status?.source ?? null}
          error={status?.error ?? null}
          testid="matrix-fetched-at"
        />
      </div>
      {loading && shownProgress && (
        <div className="progress" role="status" data-testid="matrix-progress">
          <progress max={Math.max(1, shownProgress.total)} value={shownProgress.loaded} /> Loading sub-account balances:{' '}
          {shownProgress.loaded} of {shownProgress.total} requests
        </div>
      )}
      {status?.error && (
        <ErrorPanel
          error={
            new DeskError({ kind: 'internal', message: status.error, ...(status.error_detail ? { detail: status.error_detail } : {}) })
          }
          onRetry={() => refresh.mutate()}
        />
      )}
      <UnreadNotice records={status?.unread ?? []} what="the rows and totals below" />
      {matrix.error !== null && <ErrorPanel error={matrix.error} />}
      {exportCsv.error && <ErrorPanel error={exportCsv.error} />}
      {/* Focusable: the matrix scrolls in both directions from the keyboard too. */}
      <div
        className={`matrix${source === 'cache' ? ' cached' : ''}`}
        role="table"
        aria-label={source === 'cache' ? 'Sub-account balances (last known figures, not live)' : 'Sub-account balances'}
        aria-rowcount={count}
        data-testid="matrix"
        tabIndex={0}
      >
        <div className="matrix-row matrix-head" role="row">
          {table.getHeaderGroups()[0]!.headers.map((h) => (
            <div
              key={h.id}
              role="columnheader"
              className={h.id === 'uid' ? '' : 'num'}
              onClick={() => sortBy(h.id)}
              aria-sort={sort.key === h.id ? (sort.desc ? 'descending' : 'ascending') : 'none'}
            >
              {flexRender(h.column.columnDef.header, h.getContext())}
              {sort.key === h.id ? (sort.desc ? ' ↓' : ' ↑') : ''}
            </div>
          ))}
        </div>
        <div className="matrix-body" ref={scroller} style={{ height: BODY_PX }}>
          <div style={{ height: virtualizer.getTotalSize(), position: 'relative' }}>
            {items.map((v, i) => {
              const row = tableRows[i];
              const r = matrix.rowAt(v.index);
              return row ? (
                <div
                  key={v.key}
                  role="row"
                  data-uid={r?.uid}
                  className={`matrix-row${r && r.alerts > 0 ? ' alerted' : ''}`}
                  style={{ position: 'absolute', top: 0, transform: `translateY(${v.start}px)`, height: ROW_PX }}
                >
                  {row.getVisibleCells().map((c) => (
                    <div key={c.id} role="cell" className={c.column.id === 'uid' ? 'who' : 'num'}>
                      {flexRender(c.column.columnDef.cell, c.getContext())}
                    </div>
                  ))}
                </div>
              ) : null;
            })}
          </div>
        </div>
        {page && (
          <div className="matrix-row matrix-foot" role="row" data-testid="matrix-totals">
            <div role="cell">
              Total of {count} sub-accounts
              {status?.unread.length ? (
                <span data-testid="totals-exclude">
                  {' '}
                  (excludes {unreadText(status.unread.length).replace(' could not be read', ' that could not be read')})
                </span>
              ) : null}
            </div>
            {ACCOUNT_KINDS.map((k) => (
              <div key={k} role="cell" className="num" data-testid={`col-total-${k}`}>
                {figure(page.column_totals[k])}
              </div>
            ))}
            <div role="cell" className="num">
              <strong data-testid="grand-total">{figure(page.grand_total)}</strong>
            </div>
            <div role="cell" />
            <div role="cell" />
          </div>
        )}
      </div>
    </section>
  );
}
