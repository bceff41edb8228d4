import type { z } from 'zod';
import { TotalBalance } from '../../../shared/api/records.ts';
import { MainBalances } from '../../../shared/balances.ts';
import type { BalanceStore } from './store.ts';

// The Overview's reads of the exchange, kept with their time so that the next start paints them at once
// (docs/performance.md §Opening the desk: local-first paint). The file is the profile's balances SQLite, which anyone who can write the
// data folder can edit: an answer is parsed again on the way out, and one that does not parse is dropped
// with a log line. Nothing that moves money reads these; the window marks them with their age.

const SCHEMAS = { totalBalance: TotalBalance, balancesMain: MainBalances } as const;
export type LastKnownChannel = keyof typeof SCHEMAS;
export type LastKnown<C extends LastKnownChannel> = { at: number; data: z.output<(typeof SCHEMAS)[C]> };

/** The request as parsed (defaults filled in), so that `{}` and `{currency: 'USDT'}` are one entry. */
const keyOf = (request: object) => JSON.stringify(request);

export function remember<C extends LastKnownChannel>(store: BalanceStore, channel: C, request: object, answer: unknown, at: number): void {
  store.remember(channel, keyOf(request), at, JSON.stringify(answer));
}

export function recall<C extends LastKnownChannel>(
  store: BalanceStore,
  channel: C,
  request: object,
  log?: (line: string) => void,
): LastKnown<C> | null {
  const row = store.recall(channel, keyOf(request));
  if (!row) return null;
  let parsed: unknown;
  try {
    parsed = JSON.parse(row.answer);
  } catch {
    parsed = undefined;
  }
  const data = SCHEMAS[channel].safeParse(parsed);
  if (!data.success || !Number.isSafeInteger(row.at) || row.at < 0) {
    log?.(`[balances] the kept answer of ${channel} does not parse; it is not shown (the data folder was edited?)`);
    return null;
  }
  return { at: row.at, data: data.data as LastKnown<C>['data'] };
}
