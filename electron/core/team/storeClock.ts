// A desk's clock against the team store's (docs/team.md §Time). A record's time is its writing desk's
// clock, signed; a desk whose clock runs hours ahead would date its records hours ahead and drag the
// queue's times (expiry, cooling-off) with it. The database's now() is the one clock every desk of the
// team sees, so each desk measures itself against it (on connect, at every re-check and before every
// record it writes) and writes no record while it is more than MAX_SKEW_MS off; the team card says so.

/** How far a desk's clock may be from the store's before it writes no record. */
export const MAX_SKEW_MS = 60_000;

export interface ClockReading {
  /** The desk's clock minus the store's, in milliseconds (positive: the desk is ahead). */
  offsetMs: number;
  /** The desk's clock when it was measured. */
  at: number;
}

/**
 * The offset of the desk's clock from the database's: now() is taken halfway between the query's start
 * and its answer, so the round trip is not counted as skew.
 */
export async function readClock(ask: () => Promise<number>, now: () => number): Promise<ClockReading> {
  const before = now();
  const store = await ask();
  const after = now();
  return { offsetMs: Math.round((before + after) / 2 - store), at: after };
}

/** "2 h 0 min ahead of", "75 s behind": the offset in words. */
export function skewWords(offsetMs: number): string {
  const ms = Math.abs(offsetMs);
  const side = offsetMs > 0 ? 'ahead of' : 'behind';
  if (ms < 120_000) return `${Math.round(ms / 1000)} s ${side}`;
  const min = Math.round(ms / 60_000);
  return min < 60 ? `${min} min ${side}` : `${Math.floor(min / 60)} h ${min % 60} min ${side}`;
}

/** Why this desk writes no team record now, or null when its clock is close enough to the store's. */
export function skewRefusal(r: ClockReading | null): string | null {
  if (!r || Math.abs(r.offsetMs) <= MAX_SKEW_MS) return null;
  return `This desk's clock is ${skewWords(r.offsetMs)} the team store's (the database's now()): it writes no team record until its clock is set right, since every desk would take the time it signed`;
}

/** The database's now(), in milliseconds: the one clock every desk of the team sees. */
export const STORE_NOW_SQL = 'SELECT (extract(epoch FROM now()) * 1000)::bigint::text AS ms';
