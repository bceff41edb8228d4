import { useVirtualizer } from '@tanstack/react-virtual';
import { useEffect, useMemo, useRef, type ReactNode } from 'react';
import type { HistoryFilters, HistoryKind, HistorySort } from '../../../../shared/history.ts';
import { Copy } from '../../components/Copy.tsx';
import { ErrorPanel } from '../../components/ErrorPanel.tsx';
import { useHistoryPages } from './queries.ts';

export interface Column<R> {
  id: string;
  header: string;
  /** Its width in px on a wide window; a column not `fixed` gives way in proportion on a narrow one. */
  width: number;
  /** Keeps its width: values that are short and read whole (times, currency codes, amounts). */
  fixed?: boolean;
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
  return c.fixed ? `${c.width}px` : `minmax(${Math.min(c.width, MIN_COLUMN)}px, ${c.width}fr)`;
}
/** Load the next page when the rows in view come within this many of the end of what is loaded. */
const PREFETCH_ROWS = 150;

/**
 * A long list, virtualized: only the rows in view (and a few around them) exist in the page, and rows
 * are asked from the core a page at a time as the view reaches them. A row not loaded yet is drawn as
 * a placeholder, never as a real row.
 */
export function HistoryTable<K extends HistoryKind, R>({
  kind,
  filters,
  sort,
  onSort,
  columns,
  rowKey,
  onSelect,
  selected,
  label,
}: {
  kind: K;
  filters: HistoryFilters;
  sort: HistorySort;
  onSort: (s: HistorySort) => void;
  columns: Column<R>[];
  rowKey: (r: R) => string;
  onSelect?: (r: R) => void;
  selected?: string | null;
  label: string;
}) {
  const q = useHistoryPages(kind, filters, sort);
  const rows = useMemo(() => (q.data?.pages.flatMap((p) => p.rows) ?? []) as R[], [q.data]);
  const total = q.data?.pages[0]?.total ?? 0;
  const scroller = useRef<HTMLDivElement>(null);
  const v = useVirtualizer({ count: total, getScrollElement: () => scroller.current, estimateSize: () => ROW_HEIGHT, overscan: 12 });
  const items = v.getVirtualItems();
  const lastIndex = items.at(-1)?.index ?? 0;
  const { hasNextPage, isFetchingNextPage, fetchNextPage } = q;
  useEffect(() => {
    if (hasNextPage && !isFetchingNextPage && lastIndex + PREFETCH_ROWS >= rows.length) void fetchNextPage();
  }, [lastIndex, rows.length, hasNextPage, isFetchingNextPage, fetchNextPage]);
  const grid = columns.map(track).join(' ');
  const sortBy = (by: HistorySort['by']) => onSort({ by, dir: sort.by === by && sort.dir === 'desc' ? 'asc' : 'desc' });

  return (
    <div className="history-table" data-kind={kind} data-total={total} data-stale={q.isPlaceholderData ? 'true' : 'false'}>
      {q.isError && <ErrorPanel error={q.error} />}
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
        <div ref={scroller} className="history-scroll" data-testid={`${kind}-scroll`} role="rowgroup" tabIndex={0}>
          <div role="presentation" style={{ height: v.getTotalSize(), position: 'relative' }}>
            {items.map((item) => {
              const row = rows[item.index];
              const key = row ? rowKey(row) : null;
              return (
                <div
                  key={item.key}
                  className={`history-row${key && key === selected ? ' selected' : ''}${row ? '' : ' placeholder'}`}
                  role="row"
                  aria-rowindex={item.index + 2}
                  data-row={key ?? undefined}
                  data-placeholder={row ? undefined : 'true'}
                  style={{ gridTemplateColumns: grid, transform: `translateY(${item.start}px)`, height: ROW_HEIGHT }}
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
            })}
          </div>
        </div>
      </div>
      <div className="muted small" data-testid={`${kind}-total`}>
        {total.toLocaleString('en-US')} records{q.isFetching ? ' · loading' : ''}
      </div>
    </div>
  );
}
