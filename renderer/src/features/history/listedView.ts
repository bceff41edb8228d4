import { useCallback, useEffect, useRef, useState } from 'react';
import type { HistoryKind, HistoryQuery } from '../../../../shared/history.ts';
import { usePrefetchFirstPage } from './queries.ts';

// A list's filters and sort move in two steps: the controls show the operator's choice at once, the list
// moves to it when its first page is in. Rendered at the change itself, the list redrew its old rows
// marked stale (a render and a paint of the whole table) in the tasks that then had to take in the new
// rows' answer: in a Chromium trace of `npm run bench -- ui`'s filter, the host wrote its answer 2 ms
// after the ask and the window read it 17 ms after, behind that render and paint (docs/performance.md §Long lists).

/**
 * How long a choice waits for its rows before the list shows the previous ones marked stale: past a
 * tenth of a second an operator no longer reads the change as immediate and needs to see it under way.
 */
export const STALE_AFTER_MS = 100;

export interface ListedView {
  /** The operator's last choice: what the controls show. */
  chosen: HistoryQuery;
  /** What the list shows: the last choice whose first page came in, or that waited STALE_AFTER_MS. */
  listed: HistoryQuery;
  /** A new choice, or one made from the last (`prev` is the last choice, not the one listed). */
  choose: (next: HistoryQuery | ((prev: HistoryQuery) => HistoryQuery)) => void;
}

export function useListedView(kind: HistoryKind, initial: () => HistoryQuery): ListedView {
  const prefetch = usePrefetchFirstPage(kind);
  const [chosen, setChosen] = useState(initial);
  const [listed, setListed] = useState(chosen);
  const last = useRef(chosen);
  const timer = useRef<ReturnType<typeof setTimeout> | null>(null);
  useEffect(
    () => () => {
      if (timer.current) clearTimeout(timer.current);
    },
    [],
  );
  const choose = useCallback(
    (next: HistoryQuery | ((prev: HistoryQuery) => HistoryQuery)) => {
      const view = typeof next === 'function' ? next(last.current) : next;
      last.current = view;
      setChosen(view);
      // A choice overtaken by another is never listed: the list goes to the last one only.
      const list = () => {
        if (last.current !== view) return;
        if (timer.current) clearTimeout(timer.current);
        timer.current = null;
        setListed(view);
      };
      if (timer.current) clearTimeout(timer.current);
      timer.current = setTimeout(list, STALE_AFTER_MS);
      // A page that failed is listed too: the list shows its error.
      void prefetch(view.filters, view.sort).then(list);
    },
    [prefetch],
  );
  return { chosen, listed, choose };
}
