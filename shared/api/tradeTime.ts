import type { SpotTrade } from './orders.ts';

/**
 * When a trade happened, in milliseconds since the epoch. The live service sends `create_time_ms` as
 * milliseconds with 3 decimal places ("1548000000123.456": its API v4 reference for GET /spot/my_trades;
 * the gate-api SDKs' Trade model, e.g. gateio/gateapi-python docs/Trade.md, "Trading time, with
 * millisecond precision") and `create_time` in whole seconds (§1, "Time and data types"). The desk reads
 * the milliseconds, and keeps them only while they name the same second as `create_time`: a server that
 * sent seconds in the millisecond field (the Sandbox did: "1795609183.367") would otherwise put the
 * trade in January 1970, so the desk falls back on the seconds, the spec's default unit.
 */
export function tradeTimeMs(t: Pick<SpotTrade, 'create_time' | 'create_time_ms'>): number {
  const ms = Number(t.create_time_ms);
  const sec = Number(t.create_time);
  if (Number.isFinite(ms) && (!Number.isFinite(sec) || Math.floor(ms / 1000) === Math.floor(sec))) return Math.floor(ms);
  return Math.floor(sec * 1000);
}
