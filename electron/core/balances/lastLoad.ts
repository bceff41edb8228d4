import { z } from 'zod';
import {
  SubAccountCrossMarginBalance,
  SubAccountFuturesBalance,
  SubAccountMarginBalance,
  SubAccountSpotBalance,
} from '../../../shared/api/records.ts';
import { DecimalString, isDecimalString } from '../../../shared/money.ts';
import { UnreadRecord } from '../../../shared/unread.ts';
import type { SubAccountsRaw } from './load.ts';
import type { BalanceStore } from './store.ts';

// The last complete load of the sub-accounts, kept in the profile's balances file so that the next start
// shows it at once (marked as cached) instead of waiting for 15 requests. Whoever can write the data
// folder can edit that file: what is read back goes through the same record schemas as the exchange's
// answers, and anything that does not fit refuses the whole copy (a copy missing one sub-account would
// show wrong totals), with a log line; the page then waits for the exchange as on a first start.

/** Records parsed between two yields: what else the process serves waits for one such step at most. */
export const RECORDS_PER_STEP = 100;

/** A clock set back a little between two runs is no tampering; a load from the future is. */
const FUTURE_SLACK_MS = 60_000;

const CachedTicker = z.object({ currency_pair: z.string(), last: DecimalString }).strict();

const CachedLoad = z
  .object({
    accounts: z.array(z.object({ uid: z.string(), name: z.string() }).strict()),
    spot: z.array(SubAccountSpotBalance),
    margin: z.array(SubAccountMarginBalance),
    futures: z.array(SubAccountFuturesBalance),
    cross: z.array(SubAccountCrossMarginBalance),
    tickers: z.array(CachedTicker),
    requests: z.number().int().nonnegative(),
    unread: z.array(UnreadRecord),
  })
  .strict();

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
 * that yields between its parts (the JSON, then every RECORDS_PER_STEP records of each list): 1,000
 * sub-accounts take a few hundred ms in a process that just started, and the caller lets other work (the
 * window's first files and reads, issue 25) run in between.
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
  const extra = Object.keys(json).find((k) => !(k in CachedLoad.shape));
  if (extra !== undefined) return refuse(`${extra}: Unrecognized key`);
  const out: Record<string, unknown> = {};
  for (const [key, schema] of Object.entries(CachedLoad.shape)) {
    yield;
    const value = (json as Record<string, unknown>)[key];
    if (schema instanceof z.ZodArray && Array.isArray(value)) {
      const items: unknown[] = [];
      for (const [i, item] of value.entries()) {
        if (i > 0 && i % RECORDS_PER_STEP === 0) yield;
        const parsed = (schema.element as z.ZodType).safeParse(item);
        if (!parsed.success) {
          const issue = parsed.error.issues[0]!;
          return refuse(`${[key, i, ...issue.path].join('.')}: ${issue.message}`);
        }
        items.push(parsed.data);
      }
      out[key] = items;
      continue;
    }
    const parsed = schema.safeParse(value);
    if (!parsed.success) {
      const issue = parsed.error.issues[0]!;
      return refuse(`${[key, ...issue.path].join('.')}: ${issue.message}`);
    }
    out[key] = parsed.data;
  }
  return { fetchedAt: at, raw: out as z.output<typeof CachedLoad> };
}
