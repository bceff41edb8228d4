import type { IntentView } from '../journal/intents.ts';

// When a write whose answer did not come may be sent again (docs/failure-modes.md §In doubt). The spec's
// ids are look-up keys, not idempotency keys: the exchange accepts a reused withdraw_order_id (§4.2), so
// "no record with this id" proves the write absent only once no earlier attempt can still land.
//
// An attempt's deadline is when the client aborts it; a request still queued then never leaves
// (client.ts), so its signed Timestamp is before the deadline. §5.6 has the exchange refuse a request
// whose Timestamp is more than 60 s from its own clock (REQUEST_EXPIRED), so no attempt is accepted later
// than deadline + 60 s. How long the exchange may then take to record what it accepted is not shown (the
// spec only says a 202 means "processing not finished"), so the settle window adds 30 s to those 60:
// DEFAULT_SETTLE_MS. A resend needs two absent lookups, the last one asked after deadline + settle.

/** The §5.6 Timestamp tolerance plus 30 s for the exchange to record what it accepted. */
export const DEFAULT_SETTLE_MS = 90_000;
/** The least settle window on a live exchange, whatever the setting says: the §5.6 tolerance alone. */
export const MIN_LIVE_SETTLE_MS = 60_000;
/** The client's own request timeout (client.ts): an attempt's deadline is this long after it leaves. */
export const DEFAULT_REQUEST_TIMEOUT_MS = 15_000;

export interface DoubtRules {
  settleMs: number;
  requestTimeoutMs: number;
}

/** Until when `v`'s last attempt may still land: a lookup that finds nothing before then proves nothing. */
export function doubtEnd(v: IntentView, r: DoubtRules): number {
  if (v.doubt_until !== undefined) return v.doubt_until;
  // A journal written before deadlines were recorded: its attempt ran at most the client's timeout.
  const deadline = v.deadline ?? (v.last_sent_at ?? v.updated_at) + r.requestTimeoutMs;
  return deadline + r.settleMs;
}

/** Whether the lookups so far prove `v` absent: at least two, the last one asked after the doubt ended. */
export function provenAbsent(v: IntentView, r: DoubtRules): boolean {
  return v.absent_lookups >= 2 && (v.last_absent_at ?? -Infinity) >= doubtEnd(v, r);
}

/**
 * The doubt of a write that this run never sent but an earlier run or another desk may have: a restart, a
 * restored data folder, a send lease taken over. Whoever sent before is gone or fenced off by now (the
 * journal's lock, the lease), so its last attempt's deadline is at most a request timeout from now.
 */
export function inheritedDoubtEnd(now: number, r: DoubtRules): number {
  return now + r.requestTimeoutMs + r.settleMs;
}
