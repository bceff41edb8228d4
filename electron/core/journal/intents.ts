import { isFinalTransferStatus, isFinalWithdrawalStatus } from '../../../shared/api/statuses.ts';
import { FINISHED_INTENT_STATES, type IntentState, type IntentView } from '../../../shared/ipc.ts';
import { SETTLED_DONE } from './intentOutcome.ts';
import { isGovernance, isIssued, type AnyRecord } from './records.ts';

/**
 * Where an intent stands, as the journal proves it:
 * - pending_approval: journaled, not approved; never sent by itself.
 * - approved: may be sent; no request is out (none left yet, or the last was refused with 429).
 * - in_flight: a request may have left and no answer is recorded (after a crash: maybe applied).
 * - unconfirmed: the answer was ambiguous; only lookups decide what happens next.
 * - accepted: the exchange holds it; a withdrawal stays here until a final status (watched).
 * - done: accepted and finished (a transfer, or a withdrawal in DONE, CANCEL or REJECT).
 * - refused: the exchange answered a clear refusal; nothing was applied.
 * - needs_attention: the desk cannot prove what happened; an operator settles it.
 * - settled, cancelled: closed by the operator.
 */
export type { IntentState, IntentView } from '../../../shared/ipc.ts';

export const FINISHED_STATES: ReadonlySet<IntentState> = FINISHED_INTENT_STATES;

export function isFinished(v: IntentView): boolean {
  return FINISHED_STATES.has(v.state);
}

/**
 * Accepted and still watched: a withdrawal until a §3.1 final status, a main/sub transfer until
 * /wallet/order_status gives a §3.3 final one (its POST answers only the tx_id).
 */
export function awaitsFinalStatus(v: IntentView): boolean {
  if (v.kind === 'withdrawal') return !(v.status && isFinalWithdrawalStatus(v.status));
  if (v.kind === 'main_sub_transfer') return !(v.status && isFinalTransferStatus(v.status));
  return false;
}

/** Applies one record to the map of intents; records of unknown intents are an error of the journal. */
export function applyRecord(views: Map<string, IntentView>, r: AnyRecord): void {
  // Governance records (operators, requests, policy) are folded by governance/fold.ts, not here.
  if (isGovernance(r) || isIssued(r)) return;
  const at = Date.parse(r.at);
  if (r.type === 'intent') {
    if (views.has(r.intent)) throw new Error(`intent ${r.intent} is journaled twice`);
    views.set(r.intent, {
      id: r.intent,
      kind: r.kind,
      client_id: r.client_id,
      body: Object.freeze({ ...r.body }),
      ...(r.signer ? { signer: r.signer } : {}),
      ...(r.note ? { note: r.note } : {}),
      ...(r.signatures ? { signatures: r.signatures } : {}),
      state: 'pending_approval',
      created_at: at,
      updated_at: at,
      attempts: 0,
      absent_lookups: 0,
    });
    return;
  }
  const v = views.get(r.intent);
  if (!v) throw new Error(`a ${r.type} record names intent ${r.intent}, which was never journaled`);
  v.updated_at = at;
  switch (r.type) {
    case 'approval':
      v.approved_by = r.by;
      v.state = 'approved';
      break;
    case 'cancelled':
      v.state = 'cancelled';
      v.reason = r.reason;
      break;
    case 'sent':
      v.attempts = r.attempt;
      v.last_sent_at = at;
      if (r.deadline !== undefined) v.deadline = Date.parse(r.deadline);
      else delete v.deadline;
      v.absent_lookups = 0;
      delete v.first_absent_at;
      delete v.last_absent_at;
      delete v.doubt_until;
      delete v.proven_absent;
      v.state = 'in_flight';
      break;
    case 'unconfirmed':
      v.state = 'unconfirmed';
      v.reason = r.reason;
      // Lookups count from the doubt's start: one asked before it proves nothing about this attempt.
      v.absent_lookups = 0;
      delete v.first_absent_at;
      delete v.last_absent_at;
      if (r.until !== undefined) v.doubt_until = Date.parse(r.until);
      break;
    case 'duplicate':
      v.duplicates = [
        ...(v.duplicates ?? []).filter((d) => d.exchange_id !== r.exchange_id),
        { exchange_id: r.exchange_id, action: r.action, ...(r.status !== undefined ? { status: r.status } : {}), reason: r.reason },
      ];
      break;
    case 'lookup':
      v.absent_lookups += 1;
      v.first_absent_at ??= at;
      v.last_absent_at = Date.parse(r.asked_at);
      break;
    case 'retry':
      // After lookups (not a 429 or an unsent request): the doubt is over and the id proved absent.
      if (v.state === 'unconfirmed' && v.absent_lookups > 0) v.proven_absent = true;
      delete v.doubt_until;
      v.state = 'approved';
      v.reason = r.reason;
      break;
    case 'result':
      delete v.doubt_until;
      if (r.outcome === 'refused') {
        v.state = 'refused';
        if (r.label !== undefined) v.label = r.label;
        if (r.message !== undefined) v.reason = r.message;
      } else {
        if (r.exchange_id !== undefined) v.exchange_id = r.exchange_id;
        if (r.status !== undefined) v.status = r.status;
        delete v.reason;
        v.state = awaitsFinalStatus(v) ? 'accepted' : 'done';
      }
      break;
    case 'status':
      v.status = r.status;
      if (r.final && v.kind !== 'withdrawal' && r.status === 'FAIL') {
        v.state = 'refused';
        v.reason = 'The exchange recorded the transfer with status FAIL; nothing moved.';
      } else if (r.final) v.state = 'done';
      break;
    case 'needs_attention':
      delete v.doubt_until;
      v.state = 'needs_attention';
      v.reason = r.reason;
      break;
    case 'settled':
      v.state = 'settled';
      v.reason = `${r.outcome === 'done' ? SETTLED_DONE : 'settled as not done'} by ${r.by}: ${r.note}`;
      break;
  }
}
