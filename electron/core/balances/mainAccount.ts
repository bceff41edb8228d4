import type { MainBalances } from '../../../shared/balances.ts';
import type { ApiClient, Priority } from '../client/client.ts';
import { cellsOf } from './amounts.ts';
import { loadMain } from './load.ts';
import { kindsOf } from './matrix.ts';
import { Prices } from './valuation.ts';

// The main account's own accounts are read fresh at each ask (the Overview's refresh) and valued as a
// matrix row is; nothing of them is kept.

export async function readMainBalances(client: ApiClient, quote: string, priority: Priority, now: () => number): Promise<MainBalances> {
  const raw = await loadMain(client, priority);
  const prices = new Prices(raw.tickers);
  const available: Record<string, string> = {},
    locked: Record<string, string> = {};
  for (const s of raw.spot) {
    available[s.currency] = s.available;
    locked[s.currency] = s.locked;
  }
  const { cells, total } = cellsOf(kindsOf({ uid: '', available, locking: locked }, raw.margin, raw.futures, raw.cross), prices, quote);
  return {
    fetched_at: now(),
    quote,
    cells,
    total,
    spot: raw.spot.map((s) => ({ currency: s.currency, available: s.available, locked: s.locked })),
    margin: raw.margin,
    futures: raw.futures,
    cross_margin: raw.cross,
  };
}
