import type { IntentView } from '../journal/intents.ts';
import type { Journal } from '../journal/journal.ts';
import type { IntentBody } from '../journal/records.ts';
import { doubtEnd, inheritedDoubtEnd, provenAbsent, type DoubtRules } from './doubt.ts';
import { undoCopies } from './duplicates.ts';
import { foundResult } from './found.ts';
import { KINDS, resendable } from './inputs.ts';
import { lookupFor } from './lookupFor.ts';
import { lookupTransfer, lookupWithdrawal, type Found, type Lookup, type WriteClient } from './lookups.ts';
import { isFinalTransferStatus, isFinalWithdrawalStatus } from '../../../shared/api/statuses.ts';
import { secretLostReason } from './subKeySecret.ts';

// After an unclear answer: what the exchange's records say of a write, and what the journal records of
// it (docs/failure-modes.md §In doubt). The executor (executor.ts) drives these; they never send.

/** What resolving a write may use of its executor. */
export interface ResolveCtx {
  journal: Journal;
  /** The main key's client. */
  client: WriteClient;
  doubt: DoubtRules;
  now: () => number;
  clientFor: (v: IntentView) => WriteClient | string;
  record: (body: IntentBody) => void;
  view: (id: string) => IntentView;
  sleep: () => Promise<void>;
}

export function lookup(c: ResolveCtx, v: IntentView): Promise<Lookup> {
  return lookupFor(v, { journal: c.journal, client: c.client, clientFor: c.clientFor, now: c.now() });
}

export function secretLost(c: ResolveCtx, v: IntentView, why: string): void {
  c.record({ type: 'needs_attention', intent: v.id, reason: secretLostReason(v, why) });
}

export function onAmbiguous(c: ResolveCtx, v: IntentView, reason: string): void {
  const spec = KINDS[v.kind];
  if (resendable(spec) || v.kind === 'uid_transfer') {
    // An attempt of an earlier run left no deadline (older journals) or a past one: doubtEnd reads it.
    const until = v.attempts > 0 ? doubtEnd(v, c.doubt) : inheritedDoubtEnd(c.now(), c.doubt);
    c.record({ type: 'unconfirmed', intent: v.id, attempt: v.attempts, reason, until: new Date(until).toISOString() });
    return;
  }
  c.record({
    type: 'needs_attention',
    intent: v.id,
    reason: `The ${spec.what} got no clear answer (${reason}). The API gives this kind of transfer no id to look up, so the desk will not send it again: check both accounts' balances, then settle it as done or not done.`,
  });
}

export async function resolveOnce(c: ResolveCtx, v: IntentView): Promise<void> {
  const spec = KINDS[v.kind];
  const askedAt = c.now();
  const l = await lookup(c, v);
  if (l.kind === 'found') {
    if (v.kind === 'uid_transfer' && l.copies > 1) {
      c.record({
        type: 'needs_attention',
        intent: v.id,
        reason: `The UID transfer got no clear answer, and ${l.copies} outgoing UID transfers to user ${String(v.body.receive_uid)} of ${String(v.body.amount)} ${String(v.body.currency)} match it. Check which one is this transfer, then settle it.`,
      });
      return;
    }
    return recordFound(c, v, l);
  }
  if (l.kind === 'unknown') {
    if (l.impossible) return cannotProve(c, v, l.reason);
    if (l.refusedLabel !== undefined) {
      c.record({
        type: 'needs_attention',
        intent: v.id,
        reason: `The ${spec.what} got no clear answer, and the exchange refused the desk's check (${l.refusedLabel}: ${l.reason}). It will not be sent again: check the exchange's records, then settle it.`,
      });
      return;
    }
    return c.sleep();
  }
  c.record({ type: 'lookup', intent: v.id, found: false, asked_at: new Date(askedAt).toISOString() });
  const after = c.view(v.id);
  // The guard of rule 2: "absent" counts only once no earlier attempt can land any more.
  if (!provenAbsent(after, c.doubt)) return c.sleep();
  const span = (after.last_absent_at ?? 0) - (after.first_absent_at ?? 0);
  if (resendable(spec)) {
    c.record({
      type: 'retry',
      intent: v.id,
      reason: `${v.client_id ? `id ${v.client_id}` : 'no effect'} absent over ${after.absent_lookups} lookups, the last after its doubt ended at ${new Date(doubtEnd(after, c.doubt)).toISOString()}; sending again`,
    });
    return;
  }
  c.record({
    type: 'needs_attention',
    intent: v.id,
    reason: `The UID transfer got no clear answer and no matching record appeared over ${Math.round(span / 1000)} s, so it most likely did not happen. The API gives it no id, so the desk cannot prove it and will not send it again: check the account, then settle it (and send it again by hand if needed).`,
  });
}

export function cannotProve(c: ResolveCtx, v: IntentView, reason: string): void {
  c.record({
    type: 'needs_attention',
    intent: v.id,
    reason: `The ${KINDS[v.kind].what} got no clear answer and the desk cannot prove it absent (${reason}). It will not be sent again: check the exchange's records, then settle it.`,
  });
}

export async function recordFound(c: ResolveCtx, v: IntentView, l: Found): Promise<void> {
  const result = foundResult(v, l);
  c.record(result);
  if (result.type === 'result' && result.outcome === 'refused') return;
  if (l.copies > 1) await flagCopies(c, c.view(v.id), l);
  // Found by its name after an unclear answer: the answer that carried the secret is gone for good.
  else if (v.kind === 'sub_account_key_create') secretLost(c, c.view(v.id), 'its secret came only in the answer the desk did not get');
}

/**
 * The last line, not the mechanism: the exchange holds the write more than once. Later copies are
 * cancelled where the exchange allows it; what is left is named for an operator.
 */
export async function flagCopies(c: ResolveCtx, v: IntentView, l: Found): Promise<void> {
  const left = await undoCopies(c.client, v, l, (body) => c.record(body));
  if (left === 0) return;
  c.record({
    type: 'needs_attention',
    intent: v.id,
    reason: `The exchange holds ${l.copies} ${KINDS[v.kind].what}s with id ${v.client_id}: it was applied more than once, and ${left} extra ${left === 1 ? 'copy' : 'copies'} could not be cancelled by the desk. Check the exchange's records, then settle this intent.`,
  });
}

/** Reads an accepted withdrawal's or main/sub transfer's status once; a final one finishes it. */
export async function confirmStatus(c: ResolveCtx, v: IntentView): Promise<void> {
  if (v.kind !== 'withdrawal' && v.kind !== 'main_sub_transfer') return;
  const l = v.kind === 'withdrawal' ? await lookupWithdrawal(c.client, v, c.now()) : await lookupTransfer(c.client, v);
  if (l.kind !== 'found') return;
  if (l.status !== undefined && l.status !== v.status) {
    const final = v.kind === 'withdrawal' ? isFinalWithdrawalStatus(l.status) : isFinalTransferStatus(l.status);
    c.record({ type: 'status', intent: v.id, status: l.status, final });
  }
  if (l.copies > 1) await flagCopies(c, c.view(v.id), l);
}
