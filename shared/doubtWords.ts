// What a page says of a write whose outcome is not known yet (docs/failure-modes.md §In doubt): the
// first request may still reach the exchange, so nobody sends it again before its doubt ends.

/** "1 min 20 s", "45 s": a span still to wait. */
export function spanWords(ms: number): string {
  const s = Math.max(0, Math.ceil(ms / 1000));
  if (s < 60) return `${s} s`;
  const m = Math.floor(s / 60);
  return s % 60 ? `${m} min ${s % 60} s` : `${m} min`;
}

/**
 * The sentence for an in-doubt write. `until`: when its doubt ends (absent for an older journal's record);
 * `clock`: how the page writes a time of day.
 */
export function doubtWords(until: number | undefined, now: number, clock: (ms: number) => string): string {
  const head = 'Outcome not known yet: the first request may still reach the exchange.';
  if (until === undefined) return `${head} The desk looks it up by its id and never sends it again blindly.`;
  if (until > now)
    return `${head} Nothing is sent again before ${clock(until)} (${spanWords(until - now)} left), and then only if the exchange still has no record of it.`;
  return `${head} Its doubt ended at ${clock(until)}: once the exchange answers twice more that it has no record of it, it is sent again.`;
}
