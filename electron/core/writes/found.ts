import type { IntentView } from '../journal/intents.ts';
import type { IntentBody } from '../journal/records.ts';
import { KINDS } from './inputs.ts';
import type { Found } from './lookups.ts';

// What the journal records when a lookup finds a write at the exchange (executor.ts).

/** Transfer statuses (§3.3) that say the transfer did not happen; for a cancel, an order already filled. */
const FAILED_STATUSES: Partial<Record<IntentView['kind'], ReadonlySet<string>>> = {
  own_transfer: new Set(['FAIL']),
  main_sub_transfer: new Set(['FAIL']),
  sub_to_sub_transfer: new Set(['FAIL']),
  sub_own_transfer: new Set(['FAIL']),
  uid_transfer: new Set(['FAIL']),
  spot_cancel: new Set(['closed']),
};

/** The result record of a write found at the exchange: accepted, or refused when its status says nothing moved. */
export function foundResult(v: IntentView, l: Found): IntentBody {
  const via = v.kind === 'uid_transfer' ? 'records' : 'lookup';
  const ids = l.exchange_id !== undefined ? { exchange_id: l.exchange_id } : {};
  if (l.status !== undefined && FAILED_STATUSES[v.kind]?.has(l.status)) {
    const message =
      v.kind === 'spot_cancel'
        ? 'The order was filled before the cancellation reached it; nothing was cancelled.'
        : `The exchange recorded the ${KINDS[v.kind].what} with status ${l.status}; nothing moved.`;
    return { type: 'result', intent: v.id, outcome: 'refused', via, ...ids, status: l.status, message };
  }
  return { type: 'result', intent: v.id, outcome: 'accepted', via, ...ids, ...(l.status !== undefined ? { status: l.status } : {}) };
}
