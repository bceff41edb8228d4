import { useLayoutEffect, useState, type RefObject } from 'react';

// Which rows of a long list of equal-height rows are in view: worked out from the scroll position in a
// few operations, whatever the list's length. A general virtualizer measured every row (100,000
// entries built again at each change of the list's length: the first render, every filter and its
// undoing) in the very task that painted the rows (docs/performance.md §Long lists).

/** Rows `first` to `last` (inclusive; last < first when there is none) with `overscan` rows either side. */
export function rowsInView(
  scrollTop: number,
  height: number,
  count: number,
  rowHeight: number,
  overscan: number,
): { first: number; last: number } {
  if (count <= 0) return { first: 0, last: -1 };
  const top = Math.min(count - 1, Math.max(0, Math.floor(scrollTop / rowHeight)));
  const bottom = Math.max(top, Math.ceil((scrollTop + height) / rowHeight) - 1);
  return { first: Math.max(0, top - overscan), last: Math.min(count - 1, bottom + overscan) };
}

/**
 * The rows in view of `scroller` for a list of `count` rows (Infinity: whatever the length, for asking
 * the pages before the length is known), drawn again only when the row at its top or the box's height
 * changes, not at every pixel of a scroll. Until the box is measured, `boxHeight` of the window's height
 * stands in for it: the first render draws the rows the box shows, and its measure takes none away.
 */
export function useRowsInView(
  scroller: RefObject<HTMLElement | null>,
  rowHeight: number,
  overscan: number,
  boxHeight: (windowHeight: number) => number,
): (count: number) => { first: number; last: number } {
  const [view, setView] = useState(() => ({ top: 0, height: typeof window === 'undefined' ? 0 : boxHeight(window.innerHeight) }));
  useLayoutEffect(() => {
    const el = scroller.current;
    if (!el) return;
    const read = () => {
      const top = Math.floor(el.scrollTop / rowHeight);
      const height = el.clientHeight || window.innerHeight;
      setView((v) => (v.top === top && v.height === height ? v : { top, height }));
    };
    read();
    el.addEventListener('scroll', read, { passive: true });
    const resized = typeof ResizeObserver === 'function' ? new ResizeObserver(read) : null;
    resized?.observe(el);
    return () => {
      el.removeEventListener('scroll', read);
      resized?.disconnect();
    };
  }, [scroller, rowHeight]);
  // From the top row's own offset: a box scrolled part-way into a row shows one more row at its foot.
  return (count) => rowsInView(view.top * rowHeight, view.height + rowHeight, count, rowHeight, overscan);
}
