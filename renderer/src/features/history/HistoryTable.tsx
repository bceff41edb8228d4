import { useVirtualizer } from '@tanstack/react-virtual';
import { useEffect, useMemo, useRef, type ReactNode } from 'react';
import type { HistoryFilters, HistoryKind, HistorySort } from '../../../../shared/history.ts';
import { ErrorPanel } from '../../components/ErrorPanel.tsx';
import { useHistoryPages } from './queries.ts';

export interface Column<R> {
  id: string;
  header: string;
  width: string;
  render: (row: R) => ReactNode;
  /** A column the list can be sorted by. */
  sort?: HistorySort['by'];
  num?: boolean;
}

const ROW_HEIGHT = 30;
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
  const grid = columns.map((c) => c.width).join(' ');
  const sortBy = (by: HistorySort['by']) => onSort({ by, dir: sort.by === by && sort.dir === 'desc' ? 'asc' : 'desc' });

  return (
    <div
      className="history-table"
      aria-label={label}
      data-kind={kind}
      data-total={total}
      data-stale={q.isPlaceholderData ? 'true' : 'false'}
    >
      {q.isError && <ErrorPanel error={q.error} />}
      <div className="history-head" style={{ gridTemplateColumns: grid }} role="row">
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
      <div ref={scroller} className="history-scroll" data-testid={`${kind}-scroll`}>
        <div style={{ height: v.getTotalSize(), position: 'relative' }}>
          {items.map((item) => {
            const row = rows[item.index];
            const key = row ? rowKey(row) : null;
            return (
              <div
                key={item.key}
                className={`history-row${key && key === selected ? ' selected' : ''}${row ? '' : ' placeholder'}`}
                role="row"
                data-row={key ?? undefined}
                data-placeholder={row ? undefined : 'true'}
                style={{ gridTemplateColumns: grid, transform: `translateY(${item.start}px)`, height: ROW_HEIGHT }}
                onClick={row && onSelect ? () => onSelect(row) : undefined}
              >
                {row ? (
                  columns.map((c) => (
                    <div key={c.id} className={c.num ? 'num' : ''}>
                      {c.render(row)}
                    </div>
                  ))
                ) : (
                  <div className="muted">Loading…</div>
                )}
              </div>
            );
          })}
        </div>
      </div>
      <div className="muted small" data-testid={`${kind}-total`}>
        {total.toLocaleString('en-US')} records{q.isFetching ? ' · loading' : ''}
      </div>
    </div>
  );
}
