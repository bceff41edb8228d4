import { useCallback, useEffect, useRef } from 'react';
import { useSearchParams } from 'react-router';
import type { HistoryFilters, HistoryKind, HistorySort } from '../../../../shared/history.ts';
import { afterPaint } from '../../components/afterPaint.ts';
import { useListedView, type ListedView } from './listedView.ts';
import { FIRST_SORT } from './queries.ts';

// A history page's currency, status, chain and search live in the address (#/withdrawals?status=EXTPEND):
// each change the operator makes is an entry of the browser's history, so Back undoes a filter before it
// leaves the page; reload and a link keep the view; the date range stays on the page.
//
// The filters the page shows are its own state (listedView.ts: the controls show a change at once, the
// list once its rows are in); the address follows once the rows under them are painted. The router's
// address update renders the whole window again (a transition) and the browser asks for the window's
// icon again: done from the change itself, both came between the filter and its rows (docs/performance.md
// §Long lists: `npm run bench -- ui` run twice each way, alternately, the filter's median went from 74.5 to
// 64 ms). The address is written from the filters in force when it is written, so a second change made
// before it is written (status, then currency) is kept with the first.

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

const datesOf = (f: HistoryFilters): HistoryFilters => ({
  ...(f.from !== undefined ? { from: f.from } : {}),
  ...(f.to !== undefined ? { to: f.to } : {}),
});

/** The address follows a change at the latest this long after it, when its rows never came (an error). */
const ADDRESS_LATEST_MS = 1_000;

export interface AddressedView {
  view: ListedView;
  onFilters: (f: HistoryFilters) => void;
  onSort: (s: HistorySort) => void;
  /** For the table: rows for `f` are shown (the address follows them). */
  onShown: (f: HistoryFilters) => void;
}

export function useAddressedView(kind: HistoryKind): AddressedView {
  const [params, setParams] = useSearchParams();
  const view = useListedView(kind, () => ({ filters: fromUrl(params), sort: FIRST_SORT }));
  const { choose } = view;
  const inForce = useRef(view.chosen.filters);
  inForce.current = view.chosen.filters;
  const urlPart = params.toString();
  /** The address part this page last wrote or followed. */
  const shownUrl = useRef(urlPart);
  useEffect(() => {
    // Back, forward or a link changed the address: the page follows it, keeping its dates.
    if (urlPart === shownUrl.current) return;
    shownUrl.current = urlPart;
    choose(({ filters: f, sort: s }) => ({ filters: { ...datesOf(f), ...fromUrl(params) }, sort: s }));
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
    // Pushed, not replaced: the operator's change is a step Back can undo.
    setParams(inUrl);
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
  const onFilters = useCallback(
    (f: HistoryFilters) => {
      choose((v) => ({ filters: { ...datesOf(f), ...addressOf(f) }, sort: v.sort }));
      if (latest.current) clearTimeout(latest.current);
      latest.current = setTimeout(writeAddress, ADDRESS_LATEST_MS);
    },
    [writeAddress, choose],
  );
  const onSort = useCallback((s: HistorySort) => choose((v) => ({ filters: v.filters, sort: s })), [choose]);
  return { view, onFilters, onSort, onShown };
}
