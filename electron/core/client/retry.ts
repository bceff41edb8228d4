import { ExchangeError, NetworkError } from '../errors.ts';

// Only reads come here: a read repeated is harmless, a write repeated may move money twice.

/** 5xx, 429, timeouts and failed connections are worth another try; a 4xx refusal is not. */
export function isRetryableRead(e: unknown): boolean {
  if (e instanceof ExchangeError) return e.status >= 500 || e.status === 429;
  if (e instanceof NetworkError) return e.status === undefined || e.status >= 500 || e.status === 429;
  return false;
}

const BASE_MS = 250;
const CAP_MS = 8_000;

/**
 * Exponential backoff with jitter over the upper half (attempt 1 waits 125-250 ms, 2 waits 250-500 ms, ...),
 * so that clients that failed together do not come back together, yet none comes back at once.
 */
export function backoffMs(attempt: number, random: () => number = Math.random): number {
  const ceiling = Math.min(CAP_MS, BASE_MS * 2 ** Math.max(0, attempt - 1));
  return Math.round(ceiling / 2 + (ceiling / 2) * random());
}
