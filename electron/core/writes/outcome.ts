import { DeadlinePassedError, ExchangeError, HeldBackError, LockedError, NetworkError } from '../errors.ts';

/**
 * What a failed write tells the desk:
 * - refused: a 4xx with a label; the exchange decided and applied nothing.
 * - rate_limited: a 429; refused at the gate before any processing, so nothing was applied.
 * - not_sent: the desk itself stopped the request before it left (the vault is locked, its deadline passed
 *   in the queue, a freeze held it back as it left the queue).
 * - ambiguous: no answer, a dropped connection, a timeout, a 5xx, or anything the desk cannot read:
 *   the write may or may not have been applied, and only the exchange's records can tell.
 */
export type Failure =
  | { kind: 'refused'; status: number; label: string; message: string }
  | { kind: 'rate_limited'; reason: string }
  | { kind: 'not_sent'; reason: string }
  | { kind: 'ambiguous'; reason: string };

export function classifyFailure(e: unknown): Failure {
  // Signing needs the vault: a request stopped by the lock never reached the exchange.
  if (e instanceof LockedError) return { kind: 'not_sent', reason: e.message };
  if (e instanceof DeadlinePassedError || e instanceof HeldBackError) return { kind: 'not_sent', reason: e.message };
  if (e instanceof ExchangeError) {
    if (e.status === 429) return { kind: 'rate_limited', reason: `HTTP 429 ${e.label}` };
    if (e.status >= 400 && e.status < 500) return { kind: 'refused', status: e.status, label: e.label, message: e.message };
    return { kind: 'ambiguous', reason: `HTTP ${e.status} ${e.label}` };
  }
  if (e instanceof NetworkError) return { kind: 'ambiguous', reason: e.message };
  // An error of the desk itself mid-request (a bug, an abort): it proves nothing about the exchange.
  return { kind: 'ambiguous', reason: `the request failed inside the desk (${(e as Error)?.name ?? 'error'})` };
}

/** Labels that say "you sent this already": on a resend they mean the first attempt probably landed. */
export const DUPLICATE_LABELS: ReadonlySet<string> = new Set([
  'DUPLICATE_REQUEST',
  'ORDER_EXISTS',
  'REPEATED_CREATION',
  'INVALID_CLIENT_ORDER_ID',
]);

/** GET /wallet/order_status answers "no such id" with a 404 or a not-found label; either proves absence. */
export function isNotFound(e: unknown): boolean {
  return e instanceof ExchangeError && (e.status === 404 || ['NOT_FOUND', 'ORDER_NOT_FOUND', 'ORDER_NOT_EXIST'].includes(e.label));
}
