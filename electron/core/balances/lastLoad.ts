import { isDecimalString } from '../../../shared/decimal.ts';
import { LOAD_FIELDS, loadFieldProblem, loadRecordProblem, VIEW_FIELDS, viewFieldProblem, viewRowProblem } from './lastLoadShape.ts';
import type { SubAccountsRaw } from './load.ts';
import { cmpUid, OPENING_VIEW, type Viewed } from './matrix.ts';
import type { BalanceStore } from './store.ts';

// The last complete load of the sub-accounts, kept in the profile's balances file so that the next start
// shows it at once (marked as cached) instead of waiting for 15 requests. Whoever can write the data
// folder can edit that file: what is read back is held to the rules of the record schemas the exchange's
// answers went through (lastLoadShape.ts), and anything that does not fit refuses the whole copy (a copy
// missing one sub-account would show wrong totals), with a log line; the page then waits for the
// exchange as on a first start.
//
// Beside the load, its opening view (every row valued in USDT by uid, and the totals: matrix.ts
// OPENING_VIEW) as the desk showed it, so that a new start answers the page's first ask without valuing
// 1,000 sub-accounts (650 ms of decimal arithmetic in a process just started; docs/performance.md §Opening the desk): checked as the
// load is, its rows held to the load's sub-accounts, and refused with the load when it does not fit.
// Like any cached figure, it is only ever painted marked as last known, until the exchange answers.

/** Records checked between two yields: what else the process serves waits for one such step at most. */
export const RECORDS_PER_STEP = 100;

/** A clock set back a little between two runs is no tampering; a load from the future is. */
const FUTURE_SLACK_MS = 60_000;

/** A view kept by another version of the desk (rows of another shape or valued by other rules) is valued again instead. */
export const VIEW_VERSION = 1;

export interface CachedSubAccounts {
  fetchedAt: number;
  raw: SubAccountsRaw;
  /** The opening view kept with the load, when there is one of this version. */
  opening: Viewed | null;
}

/** Keeps a complete load, and its opening view when it was worked out; of the tickers only the pair and the last price valuation uses. */
export function saveLastLoad(store: BalanceStore, fetchedAt: number, raw: SubAccountsRaw, opening: Viewed | null = null): void {
  const tickers = raw.tickers
    .filter((t) => typeof t?.currency_pair === 'string' && typeof t.last === 'string' && isDecimalString(t.last))
    .map((t) => ({ currency_pair: t.currency_pair, last: t.last }));
  const view = opening && {
    version: VIEW_VERSION,
    quote: OPENING_VIEW.quote,
    rows: opening.all,
    column_totals: opening.column_totals,
    grand_total: opening.grand_total,
  };
  store.saveLastLoad(fetchedAt, JSON.stringify({ ...raw, tickers }), view && JSON.stringify(view));
}

/** The sub-accounts a load's rows are made for (matrix.ts entriesInSteps): every uid of its lists, in uid order, named from /sub_accounts. */
function accountsOf(raw: SubAccountsRaw): Array<{ uid: string; name: string }> {
  const names = new Map<string, string>();
  for (const a of raw.accounts) names.set(a.uid, a.name);
  for (const list of [raw.spot, raw.margin, raw.futures, raw.cross])
    for (const r of list) if (!names.has(String(r.uid))) names.set(String(r.uid), '');
  return [...names].map(([uid, name]) => ({ uid, name })).sort((a, b) => cmpUid(a.uid, b.uid));
}

/** The JSON object a kept text holds, or why it holds none. */
function objectIn(text: string): Record<string, unknown> | 'not JSON' | 'not an object' {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    return 'not JSON';
  }
  return typeof json === 'object' && json !== null && !Array.isArray(json) ? (json as Record<string, unknown>) : 'not an object';
}

/**
 * The kept load, parsed again; null when there is none or it is refused (said in the log). A generator
 * that yields between its parts (the JSON, then each list): 1,000 sub-accounts take a few hundred ms in a
 * process that just started, and the caller lets other work (the window's requests) run in between.
 */
export function* readLastLoad(store: BalanceStore, now: number, log: (line: string) => void): Generator<void, CachedSubAccounts | null> {
  const row = store.lastLoad();
  if (!row) return null;
  const refuse = (why: string): null => {
    log(`[balances] the cached sub-account balances were refused (${why}): the page waits for the exchange's figures`);
    return null;
  };
  const at = row.fetched_at;
  if (typeof at !== 'number' || !Number.isSafeInteger(at) || at <= 0) return refuse('its time is not a time');
  if (at > now + FUTURE_SLACK_MS) return refuse('its time is in the future');
  if (typeof row.load !== 'string') return refuse('it is not text');
  const load = objectIn(row.load);
  if (load === 'not JSON') return refuse('it is not JSON');
  if (load === 'not an object') return refuse('it is not a load');
  const extra = Object.keys(load).find((k) => !(k in LOAD_FIELDS));
  if (extra !== undefined) return refuse(`${extra}: Unrecognized key`);
  for (const key of Object.keys(LOAD_FIELDS) as Array<keyof typeof LOAD_FIELDS>) {
    yield;
    const value = load[key];
    if (key !== 'requests' && Array.isArray(value)) {
      for (let i = 0; i < value.length; i++) {
        if (i > 0 && i % RECORDS_PER_STEP === 0) yield;
        const problem = loadRecordProblem(key, i, value[i]);
        if (problem) return refuse(problem);
      }
      continue;
    }
    const problem = loadFieldProblem(key, value);
    if (problem) return refuse(problem);
  }
  const raw = load as unknown as SubAccountsRaw;
  // Of an unread record only its four fields, as the page shows them.
  raw.unread = raw.unread.map(({ endpoint, record, field, problem }) => ({ endpoint, record, field, problem }));
  if (typeof row.view !== 'string') return { fetchedAt: at, raw, opening: null };
  yield;
  const v = objectIn(row.view);
  if (v === 'not JSON') return refuse('opening: its view is not JSON');
  if (v === 'not an object') return refuse('opening: it is not a view');
  if (v.version !== VIEW_VERSION) return { fetchedAt: at, raw, opening: null };
  const extraField = Object.keys(v).find((k) => !(k in VIEW_FIELDS));
  if (extraField !== undefined) return refuse(`opening.${extraField}: Unrecognized key`);
  for (const key of Object.keys(VIEW_FIELDS) as Array<keyof typeof VIEW_FIELDS>) {
    const problem = viewFieldProblem(key, v[key]);
    if (problem) return refuse(problem);
  }
  if (v.quote !== OPENING_VIEW.quote) return refuse(`opening.quote: valued in ${String(v.quote)}, not ${OPENING_VIEW.quote}`);
  const rows = v.rows as unknown[];
  const accounts = accountsOf(raw);
  if (rows.length !== accounts.length) return refuse(`opening.rows: ${rows.length} rows for the load's ${accounts.length} sub-accounts`);
  for (let i = 0; i < rows.length; i++) {
    if (i > 0 && i % RECORDS_PER_STEP === 0) yield;
    const problem = viewRowProblem(i, rows[i]);
    if (problem) return refuse(problem);
    const r = rows[i] as { uid: string; name: string };
    if (r.uid !== accounts[i]!.uid) return refuse(`opening.rows.${i}.uid: ${r.uid} where the load has ${accounts[i]!.uid}`);
    if (r.name !== accounts[i]!.name) return refuse(`opening.rows.${i}.name: not the load's name of ${r.uid}`);
  }
  return {
    fetchedAt: at,
    raw,
    opening: {
      all: v.rows as Viewed['all'],
      column_totals: v.column_totals as Viewed['column_totals'],
      grand_total: v.grand_total as string,
    },
  };
}
