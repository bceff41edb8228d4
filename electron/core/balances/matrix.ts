import Decimal from 'decimal.js';
import { ACCOUNT_KINDS, FUTURES_SETTLES, MatrixQuery, type AccountKind, type MatrixRow } from '../../../shared/balances.ts';
import { Dec, fmt, isDecimalString } from '../../../shared/money.ts';
import { cellsOf, crossAmounts, futuresAmounts, marginAmounts, spotAmounts, type Amounts } from './amounts.ts';
import type { SubAccountsRaw, SpotWire, Wire } from './load.ts';
import { Prices } from './valuation.ts';
import type { z } from 'zod';

// The matrix: one entry per sub-account with its §2.8 records as sent, and rows valued on demand in
// the asked quote currency. Search, sort, "hide small" and paging run here, so the window receives
// one page at a time.

export interface SubAccountEntry {
  uid: string;
  name: string;
  spot: SpotWire | null;
  margin: Wire[];
  futures: Record<string, Wire>;
  cross: Wire | null;
  kinds: Record<AccountKind, Amounts>;
}

function ratioOrNull(v: unknown): string | null {
  return typeof v === 'string' && isDecimalString(v) ? v : null;
}

export function crossRisk(e: SubAccountEntry): string | null {
  if (!e.cross || e.cross.user_id === 0) return null;
  return ratioOrNull(e.cross.risk);
}

/** The lowest §2.8 `mmr` of the active pairs (the `risk` field is deprecated; an `inactive` market has none to watch). */
export function marginRisk(e: SubAccountEntry): string | null {
  let low: Decimal | null = null;
  for (const p of e.margin) {
    if (p.account_type === 'inactive') continue;
    const m = ratioOrNull(p.mmr);
    if (m !== null && (low === null || new Dec(m).lt(low))) low = new Dec(m);
  }
  return low === null ? null : fmt(low);
}

export function kindsOf(
  spot: SpotWire | null,
  margin: unknown,
  futures: Record<string, Wire>,
  cross: Wire | null,
): Record<AccountKind, Amounts> {
  return {
    spot: spotAmounts(spot?.available, spot?.locking),
    margin: marginAmounts(margin),
    futures_usdt: futuresAmounts('usdt', futures.usdt),
    futures_btc: futuresAmounts('btc', futures.btc),
    futures_usd: futuresAmounts('usd', futures.usd),
    cross_margin: crossAmounts(cross),
  };
}

export function entriesOf(raw: SubAccountsRaw): SubAccountEntry[] {
  const steps = entriesInSteps(raw, Infinity);
  for (;;) {
    const r = steps.next();
    if (r.done) return r.value;
  }
}

/** entriesOf, yielding every `every` sub-accounts summed (a start reads its kept load back in steps: service.ts warmUp). */
export function* entriesInSteps(raw: SubAccountsRaw, every: number): Generator<void, SubAccountEntry[]> {
  const byUid = new Map<string, SubAccountEntry>();
  const entry = (uid: string): SubAccountEntry => {
    let e = byUid.get(uid);
    if (!e) byUid.set(uid, (e = { uid, name: '', spot: null, margin: [], futures: {}, cross: null, kinds: kindsOf(null, [], {}, null) }));
    return e;
  };
  for (const a of raw.accounts) entry(a.uid).name = a.name;
  for (const s of raw.spot) entry(String(s.uid)).spot = s;
  for (const m of raw.margin) entry(String(m.uid)).margin = Array.isArray(m.available) ? (m.available as Wire[]) : [];
  for (const f of raw.futures) {
    const all = (f.available ?? {}) as Record<string, Wire>;
    const e = entry(String(f.uid));
    for (const s of FUTURES_SETTLES) if (all[s]) e.futures[s] = all[s];
  }
  for (const c of raw.cross) entry(String(c.uid)).cross = (c.available ?? null) as Wire | null;
  let n = 0;
  for (const e of byUid.values()) {
    if (++n % every === 0) yield;
    e.kinds = kindsOf(e.spot, e.margin, e.futures, e.cross);
  }
  return [...byUid.values()].sort((a, b) => cmpUid(a.uid, b.uid));
}

/**
 * A load summed (entriesInSteps) and valued in `quote`, yielding every `every` sub-accounts: the exchange's
 * load of 1,000 sub-accounts is 650 ms of decimal arithmetic in a process just started, and the window's
 * files and first reads, served by the same process, wait for one step at most (docs/performance.md §Opening the desk).
 */
export function* valuedInSteps(
  raw: SubAccountsRaw,
  quote: string,
  every: number,
): Generator<void, { entries: SubAccountEntry[]; prices: Prices; rows: MatrixRow[] }> {
  const entries = yield* entriesInSteps(raw, every);
  const prices = new Prices(raw.tickers);
  const rows: MatrixRow[] = [];
  for (const [i, e] of entries.entries()) {
    if (i > 0 && i % every === 0) yield;
    rows.push(rowOf(e, prices, quote, 0));
  }
  return { entries, prices, rows };
}

/** The matrix's uid order: shorter first, then by digits (uids are digits). */
export function cmpUid(a: string, b: string): number {
  return a.length - b.length || (a < b ? -1 : a > b ? 1 : 0);
}

export function rowOf(e: SubAccountEntry, prices: Prices, quote: string, alerts: number): MatrixRow {
  return { uid: e.uid, name: e.name, ...cellsOf(e.kinds, prices, quote), cross_risk: crossRisk(e), margin_risk: marginRisk(e), alerts };
}

type Query = z.output<typeof MatrixQuery>;

function sortValue(r: MatrixRow, key: Query['sort']): string | null {
  if (key === 'uid' || key === 'name') return null;
  if (key === 'total') return r.total;
  if (key === 'cross_risk') return r.cross_risk;
  return r.cells[key].value;
}

type View = Omit<Query, 'offset' | 'limit'>;
export type Viewed = { all: MatrixRow[]; column_totals: Record<AccountKind, string>; grand_total: string };

/** The view a Sub-accounts page opens with: every row, valued in USDT, by uid (the window's FIRST_VIEW). */
export const OPENING_VIEW = { quote: 'USDT', search: '', sort: 'uid', desc: false, hide_below: null } as const satisfies View;

/** Views kept per set of valued rows: the last few searches typed, not every keystroke ever. */
const VIEWS_KEPT = 8;
const views = new WeakMap<MatrixRow[], Map<string, Viewed>>();

/**
 * Filters, sorts and totals every row, then cuts the asked page. A view is worked out once per set of
 * rows (until the next load or quote): each block of it, and the asks of a page polling while a load
 * runs, only cut it (the totals are 6,000 decimal additions at 1,000 sub-accounts).
 */
export function queryRows(rows: MatrixRow[], q: Query) {
  const key = viewKey(q);
  let memo = views.get(rows);
  if (!memo) views.set(rows, (memo = new Map()));
  let view = memo.get(key);
  if (!view) {
    view = viewOf(rows, q);
    if (memo.size >= VIEWS_KEPT) memo.delete(memo.keys().next().value!);
    memo.set(key, view);
  }
  return { total_rows: view.all.length, rows: view.all.slice(q.offset, q.offset + q.limit), ...view };
}

function viewKey(q: View): string {
  return JSON.stringify([q.quote, q.search, q.hide_below, q.sort, q.desc]);
}

/** The opening view of these rows (worked out once, as any view): what is kept with a load. */
export function openingViewOf(rows: MatrixRow[]): Viewed {
  const { all, column_totals, grand_total } = queryRows(rows, { ...OPENING_VIEW, offset: 0, limit: 0 });
  return { all, column_totals, grand_total };
}

/** A kept opening view read back (lastLoad.ts): its rows, every row in uid order, are the set it is a view of. */
export function keepOpeningView(view: Viewed): void {
  views.set(view.all, new Map([[viewKey(OPENING_VIEW), view]]));
}

function viewOf(rows: MatrixRow[], q: View): Viewed {
  const needle = q.search.trim().toLowerCase();
  const floor = q.hide_below === null ? null : new Dec(q.hide_below);
  const kept = rows.filter(
    (r) => (!needle || r.uid.includes(needle) || r.name.toLowerCase().includes(needle)) && (floor === null || new Dec(r.total).gte(floor)),
  );
  const sign = q.desc ? -1 : 1;
  kept.sort((a, b) => {
    let c: number;
    if (q.sort === 'uid') c = cmpUid(a.uid, b.uid);
    else if (q.sort === 'name') c = a.name.localeCompare(b.name);
    else {
      const x = sortValue(a, q.sort),
        y = sortValue(b, q.sort);
      // Rows without a figure (no cross margin account) sort last either way.
      c = x === null || y === null ? (x === null ? (y === null ? 0 : 1) : -1) * sign : new Dec(x).cmp(y);
    }
    return sign * c || cmpUid(a.uid, b.uid);
  });
  const column_totals = {} as Record<AccountKind, string>;
  let grand = new Dec(0);
  for (const k of ACCOUNT_KINDS) {
    const t = kept.reduce((s, r) => s.plus(r.cells[k].value), new Dec(0));
    column_totals[k] = fmt(t);
    grand = grand.plus(t);
  }
  return { all: kept, column_totals, grand_total: fmt(grand) };
}
