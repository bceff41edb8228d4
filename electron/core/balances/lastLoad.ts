import { isDecimalString } from '../../../shared/decimal.ts';
import { LOAD_FIELDS, loadFieldProblem, loadRecordProblem } from './lastLoadShape.ts';
import type { SubAccountsRaw } from './load.ts';
import type { BalanceStore } from './store.ts';

// The last complete load of the sub-accounts, kept in the profile's balances file so that the next start
// shows it at once (marked as cached) instead of waiting for 15 requests. Whoever can write the data
// folder can edit that file: what is read back is held to the rules of the record schemas the exchange's
// answers went through (lastLoadShape.ts), and anything that does not fit refuses the whole copy (a copy
// missing one sub-account would show wrong totals), with a log line; the page then waits for the
// exchange as on a first start.

/** Records checked between two yields: what else the process serves waits for one such step at most. */
export const RECORDS_PER_STEP = 100;

/** A clock set back a little between two runs is no tampering; a load from the future is. */
const FUTURE_SLACK_MS = 60_000;

export interface CachedSubAccounts {
  fetchedAt: number;
  raw: SubAccountsRaw;
}

/** Keeps a complete load; of the tickers only the pair and the last price valuation uses. */
export function saveLastLoad(store: BalanceStore, fetchedAt: number, raw: SubAccountsRaw): void {
  const tickers = raw.tickers
    .filter((t) => typeof t?.currency_pair === 'string' && typeof t.last === 'string' && isDecimalString(t.last))
    .map((t) => ({ currency_pair: t.currency_pair, last: t.last }));
  store.saveLastLoad(fetchedAt, JSON.stringify({ ...raw, tickers }));
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
  let json: unknown;
  try {
    json = JSON.parse(row.load);
  } catch {
    return refuse('it is not JSON');
  }
  if (typeof json !== 'object' || json === null || Array.isArray(json)) return refuse('it is not a load');
  const load = json as Record<string, unknown>;
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
  return { fetchedAt: at, raw };
}
