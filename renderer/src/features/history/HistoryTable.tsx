import { memo, useCallback, useEffect, useRef, type ReactNode } from 'react';
import { groupDigits } from '../../../../shared/digits.ts';
import type { HistoryFilters, HistoryKind, HistorySort } from '../../../../shared/history.ts';
import { Copy } from '../../components/Copy.tsx';
import { ErrorPanel } from '../../components/ErrorPanel.tsx';
import { PAGE_SIZE, useHistoryWindow } from './queries.ts';
import { useRowsInView } from './rowWindow.ts';

export interface Column<R> {
  id: string;
  header: string;
  /** Its width in px on a wide window; a column not `fixed` gives way in proportion on a narrow one. */
  width: number;
  /** Keeps its width: values that are short and read whole (times, currency codes, amounts). */
  fixed?: boolean;
  /** The narrowest it gives way to, when more than MIN_COLUMN: a status column keeps room for its longest code. */
  min?: number;
  render: (row: R) => ReactNode;
  /** The whole value on hover, for a cell that may be cut short. */
  title?: (row: R) => string;
  /** A column the list can be sorted by. */
  sort?: HistorySort['by'];
  num?: boolean;
}

/** A long value in a row (address, txid, id): cut short to the column, whole on hover, with its copy button. */
export function LongCell({ text, label }: { text: string; label: string }) {
  return (
    <span className="long-cell">
      <span className="mono">{text}</span>
      <Copy text={text} label={label} />
    </span>
  );
}

const ROW_HEIGHT = 30;
/** The narrowest a column that gives way becomes: past it, its cell is cut short (with the whole value on hover). */
const MIN_COLUMN = 48;

/** A column's grid track: the table fits its box from 1024 px windows up, so nothing scrolls sideways. */
function track<R>(c: Column<R>): string {
  return c.fixed ? `${c.width}px` : `minmax(${Math.min(c.width, c.min ?? MIN_COLUMN)}px, ${c.width}fr)`;
}
/**
 * The list's box: the window's height less the page's header, filters and foot, never under MIN_BOX_PX.
 * Set here rather than in the style sheet, so that the first render draws the rows it shows (a render for
 * the window's height took a third of its rows away again after the measure; docs/performance.md §Long lists).
 */
const BOX_BELOW_PX = 330;
const MIN_BOX_PX = 300;
const BOX_HEIGHT_CSS = `max(${MIN_BOX_PX}px, calc(100vh - ${BOX_BELOW_PX}px))`;
const boxHeight = (windowHeight: number) => Math.max(MIN_BOX_PX, windowHeight - BOX_BELOW_PX);
/** Rows drawn beyond the view on each side: enough for a wheel step, few enough that a step renders little. */
const OVERSCAN = 5;
/** Pages are asked this many rows ahead of the view, so that a steady scroll finds them loaded. */
const AHEAD_ROWS = 40;

interface RowProps<R> {
  row: R | undefined;
  rowId: string | null;
  index: number;
  start: number;
  grid: string;
  columns: Column<R>[];
  selected: boolean;
  onSelect?: ((r: R) => void) | undefined;
}

/** One row: drawn again only when its record, place or selection changes, not on every scroll step of the list. */
const HistoryRow = memo(function HistoryRow<R>({ row, rowId, index, start, grid, columns, selected, onSelect }: RowProps<R>) {
  return (
    <div
      className={`history-row${selected ? ' selected' : ''}${row ? '' : ' placeholder'}`}
      role="row"
      aria-rowindex={index + 2}
      data-row={rowId ?? undefined}
      data-placeholder={row ? undefined : 'true'}
      style={{ gridTemplateColumns: grid, transform: `translateY(${start}px)`, height: ROW_HEIGHT }}
      onClick={row && onSelect ? () => onSelect(row) : undefined}
    >
      {row ? (
        columns.map((c) => (
          <div key={c.id} role="cell" className={c.num ? 'num' : ''} title={c.title?.(row) || undefined}>
            {c.render(row)}
          </div>
        ))
      ) : (
        <div role="cell" className="muted">
          Loading…
        </div>
      )}
    </div>
  );
}) as <R>(props: RowProps<R>) => ReactNode;

interface HistoryTableProps<K extends HistoryKind, R> {
  kind: K;
  filters: HistoryFilters;
  sort: HistorySort;
  onSort: (s: HistorySort) => void;
  columns: Column<R>[];
  rowKey: (r: R) => string;
  onSelect?: (r: R) => void;
  selected?: string | null;
  label: string;
  /** After each commit that shows the rows of the current filters and sort, none of them still being asked. */
  onShown?: (filters: HistoryFilters) => void;
}

/**
 * A long list, virtualized: only the rows in view (and a few around them) exist in the page, and rows
 * are asked from the core a page at a time as the view reaches them. A row not loaded yet is drawn as
 * a placeholder, never as a real row. Drawn again only when its own props change: a filter the
 * controls show before the list moves to it leaves the list alone (listedView.ts).
 */
export const HistoryTable = memo(function HistoryTable<K extends HistoryKind, R>({
  kind,
  filters,
  sort,
  onSort,
  columns,
  rowKey,
  onSelect,
  selected,
  label,
  onShown,
}: HistoryTableProps<K, R>) {
  const scroller = useRef<HTMLDivElement>(null);
  const inView = useRowsInView(scroller, ROW_HEIGHT, OVERSCAN, boxHeight);
  // The pages are picked from the scroll position alone, in the render that shows a jump's placeholders.
  const view = inView(Infinity);
  const w = useHistoryWindow(kind, filters, sort, Math.max(0, view.first - AHEAD_ROWS), view.last + AHEAD_ROWS);
  const total = w.total;
  const { first, last } = inView(total);
  const indexes: number[] = [];
  for (let i = first; i <= last; i++) indexes.push(i);
  const rowAt = (i: number) => w.pages.get(Math.floor(i / PAGE_SIZE))?.rows[i % PAGE_SIZE] as R | undefined;
  // A stable handler, so that a row's memo holds across the parent's renders.
  const select = useRef(onSelect);
  select.current = onSelect;
  const onRow = useCallback((r: R) => select.current?.(r), []);
  const shownNow = !w.stale && !w.fetching;
  const told = useRef(onShown);
  told.current = onShown;
  useEffect(() => {
    if (shownNow) told.current?.(filters);
  }, [shownNow, filters, sort]);
  const grid = columns.map(track).join(' ');
  const sortBy = (by: HistorySort['by']) => onSort({ by, dir: sort.by === by && sort.dir === 'desc' ? 'asc' : 'desc' });

  return (
    <div className="history-table" data-kind={kind} data-total={total} data-stale={w.stale ? 'true' : 'false'}>
      {w.error && <ErrorPanel error={w.error} />}
      <div role="table" aria-label={label} aria-rowcount={total + 1}>
        <div className="history-head" style={{ gridTemplateColumns: grid }} role="row" aria-rowindex={1}>
          {columns.map((c) => (
            <div key={c.id} role="columnheader" className={c.num ? 'num' : ''}>
              {c.sort ? (
                <button type="button" className="link" onClick={() => sortBy(c.sort!)} aria-label={`Sort by ${c.header}`}>
                  {c.header}
                  {sort.by === c.sort ? (sort.dir === 'desc' ? ' ▼' : ' ▲') : ''}
                </button>
              ) : (
                c.header
              )}
            </div>
          ))}
        </div>
        {/* Focusable, so that the list scrolls from the keyboard too. */}
        <div
          ref={scroller}
          className="history-scroll"
          style={{ height: BOX_HEIGHT_CSS }}
          data-testid={`${kind}-scroll`}
          role="rowgroup"
          tabIndex={0}
        >
          <div role="presentation" style={{ height: total * ROW_HEIGHT, position: 'relative' }}>
            {indexes.map((index) => {
              const row = rowAt(index);
              const key = row ? rowKey(row) : null;
              return (
                <HistoryRow<R>
                  key={index}
                  row={row}
                  rowId={key}
                  index={index}
                  start={index * ROW_HEIGHT}
                  grid={grid}
                  columns={columns}
                  selected={key !== null && key === selected}
                  onSelect={onSelect ? onRow : undefined}
                />
              );
            })}
          </div>
        </div>
      </div>
      <div className="muted small" data-testid={`${kind}-total`}>
        {/* Not toLocaleString: the first Intl formatter a window builds loads its locale's data inside this paint. */}
        {groupDigits(String(total))} records{w.fetching ? ' · loading' : ''}
      </div>
    </div>
  );
}) as <K extends HistoryKind, R>(props: HistoryTableProps<K, R>) => ReactNode;
