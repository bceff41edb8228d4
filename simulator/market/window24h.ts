import Decimal from 'decimal.js';
import { Dec, fmt } from '../../shared/money.ts';
import { stmt, type DB } from '../db.ts';

// The ticker's 24-hour figures (base_volume, quote_volume, high_24h, low_24h) follow the live service:
// a rolling window of the pair's trades ending now. Each trade is counted once, from its taker's row of
// spot_fills (the maker's row is the same trade). Sums are decimal, never floating point.

export const WINDOW_MS = 24 * 60 * 60 * 1000;

export interface Window24h {
  base: Decimal;
  quote: Decimal;
  /** Highest and lowest trade price in the window; null without a trade in it. */
  high: Decimal | null;
  low: Decimal | null;
}

/** Reads the partial index of takers' rows (db.ts spot_fills_taker_ts): its `role` term must stay as it is. */
export const WINDOW_ROWS = "SELECT amount, price FROM spot_fills WHERE pair = ? AND role = 'taker' AND ts_ms > ? AND ts_ms <= ?";

export function window24h(db: DB, pair: string, nowMs: number): Window24h {
  const rows = stmt(db, WINDOW_ROWS).all(pair, nowMs - WINDOW_MS, nowMs) as Array<{ amount: string; price: string }>;
  const w: Window24h = { base: new Dec(0), quote: new Dec(0), high: null, low: null };
  for (const r of rows) {
    const price = new Dec(r.price);
    w.base = w.base.plus(r.amount);
    w.quote = w.quote.plus(price.times(r.amount));
    if (w.high === null || price.gt(w.high)) w.high = price;
    if (w.low === null || price.lt(w.low)) w.low = price;
  }
  return w;
}

/** The four ticker fields; without a trade in the window the volumes are 0 and high and low the last price. */
export function tickerWindowFields(w: Window24h, last: string) {
  return {
    base_volume: fmt(w.base),
    quote_volume: fmt(w.quote),
    high_24h: w.high ? fmt(w.high) : last,
    low_24h: w.low ? fmt(w.low) : last,
  };
}
