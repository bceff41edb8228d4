import { WriteAnswer } from '../../../shared/api/records.ts';
import { isFinalTransferStatus, isFinalWithdrawalStatus } from '../../../shared/api/statuses.ts';
import type { IntentView } from '../journal/intents.ts';
import type { Journal } from '../journal/journal.ts';
import type { IntentBody, OperatorSignature, RecordType } from '../journal/records.ts';
import { newOrderId } from './ids.ts';
import { buildBody, KINDS, resendable, signerOf, wireRequest, type WriteInput } from './inputs.ts';
import { lookupCancel, lookupSpotOrder } from './orderLookups.ts';
import { lookupTransfer, lookupWithdrawal, reconcileUidTransfer, type Found, type Lookup, type WriteClient } from './lookups.ts';
import { classifyFailure, DUPLICATE_LABELS } from './outcome.ts';
import { lookupSmallBalance } from './smallBalanceLookup.ts';
import { isManagementKind } from '../../../shared/api/subAccounts.ts';
import { lookupManagement } from './subAccountLookups.ts';
import { DEFAULT_REQUEST_TIMEOUT_MS, DEFAULT_SETTLE_MS, doubtEnd, inheritedDoubtEnd, provenAbsent, type DoubtRules } from './doubt.ts';
import { undoCopies } from './duplicates.ts';

// Exactly-once writes (docs/failure-modes.md §In doubt). The rules, in order of importance:
// 1. Nothing leaves before the journal holds it: the intent, the approval, and a "sent" record per attempt
//    with its deadline, at which the client aborts it.
// 2. A write whose answer did not come is in doubt until its deadline plus the settle window (doubt.ts);
//    it is sent again only when two lookups of its id find it absent, the last one asked after that. A
//    write without an id is never sent again.
// 3. The exchange is never trusted to refuse a reused id; the desk's own lookups are the only guard, and
//    a duplicate they find anyway is cancelled where the exchange allows it (duplicates.ts).

export { DEFAULT_SETTLE_MS } from './doubt.ts';
export const DEFAULT_LOOKUP_INTERVAL_MS = 5_000;

export interface ExecutorOptions {
  journal: Journal;
  client: WriteClient;
  /**
   * The client that signs with a sub-account's own key (the session's sub-key clients); throws when the
   * profile holds no key for it. Without it, kinds signed by a sub-account's key are never sent.
   */
  subClient?: (uid: string) => WriteClient;
  /** How long after an attempt's deadline it may still land (a setting; doubt.ts says why 90 s by default). */
  settleMs?: number;
  /** How long an attempt may take before the client aborts it: its deadline (the client's timeout). */
  requestTimeoutMs?: number;
  /** Pause between lookups, and before a retry after a 429. */
  lookupIntervalMs?: number;
  now?: () => number;
  newId?: () => string;
  /**
   * Why the desk cannot sign right now (the vault is locked), or null. While there is a reason, intents
   * are not driven: they wait, as journaled, for resume() (which the core calls on unlock).
   */
  blocked?: (v: IntentView) => string | null;
  /**
   * Why the operators' approvals do not carry this write now (approvals/sendGate.ts), or null. Asked
   * before every attempt leaves, with the deadline the attempt will carry; a refused write is closed unsent,
   * and a throw leaves it waiting.
   */
  gate?: (v: IntentView, deadline: number) => Promise<string | null>;
  /**
   * Where a created sub-account key's secret goes, straight from the exchange's answer: the vault, for
   * that sub-account's signing. The secret is never journaled, logged or answered to the window; without
   * a sink (or when it fails) the key is reported as made without a usable secret.
   */
  keySink?: (uid: string, key: string, secret: Buffer) => void | Promise<void>;
  /** A sub-account key the exchange no longer holds (its removal landed): the desk stops signing with it. */
  keyGone?: (uid: string, key: string) => void;
}

/** Takes the secret out of a key creation's answer (the answer object keeps no copy). */
function takeSecret(answer: Record<string, unknown> | undefined): Buffer | null {
  if (!answer || typeof answer.secret !== 'string') return null;
  const secret = Buffer.from(answer.secret, 'utf8');
  delete answer.secret;
  return secret;
}

export interface WriteEvent {
  record: RecordType;
  intent: IntentView;
}

/** What an approved request carries beside its wire body: a batch row's note, the sub-account whose key signs it. */
export interface IntentExtra {
  note?: string;
  signer?: string;
  /**
   * When governance approved it (its quorum record's time). Not journaled: it decides whether the first send
   * needs a lookup. Absent, the approval counts as older than this run, so the lookup is never skipped.
   */
  approved_at?: number;
}

/** Who drives each intent of a journal, across every executor over it in this process. */
const drivers = new WeakMap<Journal, Map<string, Promise<IntentView>>>();

function driversOf(journal: Journal): Map<string, Promise<IntentView>> {
  let m = drivers.get(journal);
  if (!m) drivers.set(journal, (m = new Map()));
  return m;
}

/**
 * Governance approval times of the intents handed over by dispatchApproved, per journal (every executor
 * over it in this process). The journal's own approval record cannot say "earlier": handing over a request
 * approved before a restart, or in a restored folder, journals that record now.
 */
const governedAt = new WeakMap<Journal, Map<string, number>>();

function governedAtOf(journal: Journal): Map<string, number> {
  let m = governedAt.get(journal);
  if (!m) governedAt.set(journal, (m = new Map()));
  return m;
}

/** Transfer statuses (§3.3) that say the transfer did not happen; for a cancel, an order already filled. */
const FAILED_STATUSES: Partial<Record<IntentView['kind'], ReadonlySet<string>>> = {
  own_transfer: new Set(['FAIL']),
  main_sub_transfer: new Set(['FAIL']),
  sub_to_sub_transfer: new Set(['FAIL']),
  sub_own_transfer: new Set(['FAIL']),
  uid_transfer: new Set(['FAIL']),
  spot_cancel: new Set(['closed']),
};

export class WriteExecutor {
  private readonly journal: Journal;
  private readonly client: WriteClient;
  private readonly subClient: ((uid: string) => WriteClient) | null;
  private readonly doubt: DoubtRules;
  private readonly intervalMs: number;
  private readonly now: () => number;
  private readonly newId: () => string;
  private readonly blocked: (v: IntentView) => string | null;
  private readonly gate: ExecutorOptions['gate'] | null;
  private readonly keySink: ExecutorOptions['keySink'] | null;
  private readonly keyGone: ExecutorOptions['keyGone'] | null;
  private readonly running = new Map<string, Promise<IntentView>>();
  private readonly listeners = new Set<(e: WriteEvent) => void>();
  private stopped = false;
  /** Pending pauses, woken at once by stop(). */
  private readonly sleepers = new Set<() => void>();

  constructor(opts: ExecutorOptions) {
    this.journal = opts.journal;
    this.client = opts.client;
    this.subClient = opts.subClient ?? null;
    this.doubt = { settleMs: opts.settleMs ?? DEFAULT_SETTLE_MS, requestTimeoutMs: opts.requestTimeoutMs ?? DEFAULT_REQUEST_TIMEOUT_MS };
    this.intervalMs = opts.lookupIntervalMs ?? DEFAULT_LOOKUP_INTERVAL_MS;
    this.now = opts.now ?? Date.now;
    this.newId = opts.newId ?? (() => newOrderId(this.now()));
    this.blocked = opts.blocked ?? (() => null);
    this.gate = opts.gate ?? null;
    this.keySink = opts.keySink ?? null;
    this.keyGone = opts.keyGone ?? null;
  }

  /** Every state change, as the journal records it (the core forwards these to the renderer). */
  on(listener: (e: WriteEvent) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** Journals an intent awaiting approval; nothing is sent. */
  prepare(w: WriteInput, note?: string): IntentView {
    const id = this.newId();
    const spec = KINDS[w.kind];
    const body = buildBody(w, spec.idField ? id : null);
    const signer = signerOf(w);
    this.record({
      type: 'intent',
      intent: id,
      kind: w.kind,
      client_id: spec.idField ? String(body[spec.idField]) : null,
      body,
      ...(signer ? { signer } : {}),
      ...(note ? { note } : {}),
    });
    return this.view(id);
  }

  /**
   * Journals a request the governance store approved, under its own id and with the exact body the
   * operators signed, then its approval; the executor drives it from there. Idempotent: a request the
   * journal already holds is only driven (a crash between the two records is finished here).
   */
  dispatchApproved(
    id: string,
    kind: IntentView['kind'],
    body: Record<string, string | number>,
    signatures: OperatorSignature[],
    by: string,
    extra: IntentExtra = {},
  ): Promise<IntentView> {
    this.journalApproved(id, kind, body, signatures, extra);
    governedAtOf(this.journal).set(id, extra.approved_at ?? -Infinity);
    const v = this.view(id);
    if (v.state === 'pending_approval') return this.approve(id, by);
    return this.drive(id);
  }

  /**
   * Journals a row of an approved batch that will not be sent (a cancelled rebalance's rest) as cancelled,
   * so that a restarted desk never sends it. A row already on its way is left to finish.
   */
  skipApproved(
    id: string,
    kind: IntentView['kind'],
    body: Record<string, string | number>,
    signatures: OperatorSignature[],
    reason: string,
    extra: IntentExtra = {},
  ): IntentView {
    this.journalApproved(id, kind, body, signatures, extra);
    return this.view(id).state === 'pending_approval' ? this.cancel(id, reason) : this.view(id);
  }

  private journalApproved(
    id: string,
    kind: IntentView['kind'],
    body: Record<string, string | number>,
    signatures: OperatorSignature[],
    extra: IntentExtra,
  ): void {
    const spec = KINDS[kind];
    if (!this.journal.intent(id)) {
      this.record({
        type: 'intent',
        intent: id,
        kind,
        client_id: spec.idField ? String(body[spec.idField] ?? id) : null,
        body,
        signatures,
        ...(extra.note ? { note: extra.note } : {}),
        ...(extra.signer ? { signer: extra.signer } : {}),
      });
    }
  }

  /** Records the operator's approval and drives the intent until the exchange's answer is settled. */
  approve(id: string, by: string): Promise<IntentView> {
    const v = this.view(id);
    if (v.state !== 'pending_approval') throw new Error(`intent ${id} is ${v.state}; only an intent awaiting approval can be approved`);
    this.record({ type: 'approval', intent: id, by });
    return this.drive(id);
  }

  submit(w: WriteInput, by: string, note?: string): Promise<IntentView> {
    return this.approve(this.prepare(w, note).id, by);
  }

  /** Drops an intent that was never approved (so never sent). */
  cancel(id: string, reason: string): IntentView {
    const v = this.view(id);
    if (v.state !== 'pending_approval') throw new Error(`intent ${id} is ${v.state}; only an intent awaiting approval can be cancelled`);
    this.record({ type: 'cancelled', intent: id, reason });
    return this.view(id);
  }

  /** The operator's verdict on an intent the desk could not prove either way. */
  settle(id: string, by: string, outcome: 'done' | 'not_done', note: string): IntentView {
    const v = this.view(id);
    if (v.state !== 'needs_attention') throw new Error(`intent ${id} is ${v.state}; only an intent that needs attention can be settled`);
    this.record({ type: 'settled', intent: id, by, outcome, note });
    return this.view(id);
  }

  /** On start: drives every intent the journal left approved, in flight or unconfirmed. */
  resume(): Promise<IntentView[]> {
    const movable = this.journal.unfinished().filter((v) => ['approved', 'in_flight', 'unconfirmed'].includes(v.state));
    return Promise.all(movable.map((v) => this.drive(v.id)));
  }

  /**
   * Looks up accepted withdrawals and main/sub transfers once and journals status changes; a final status
   * (§3.1 DONE, CANCEL, REJECT; §3.3 SUCCESS, FAIL, PARTIAL_SUCCESS) finishes them.
   */
  async pollStatuses(): Promise<void> {
    const watched = this.journal.unfinished().filter((v) => v.state === 'accepted' && !this.running.has(v.id));
    for (const v of watched) await this.confirmStatus(v);
  }

  private async confirmStatus(v: IntentView): Promise<void> {
    if (v.kind !== 'withdrawal' && v.kind !== 'main_sub_transfer') return;
    const l = v.kind === 'withdrawal' ? await lookupWithdrawal(this.client, v, this.now()) : await lookupTransfer(this.client, v);
    if (l.kind !== 'found') return;
    if (l.status !== undefined && l.status !== v.status) {
      const final = v.kind === 'withdrawal' ? isFinalWithdrawalStatus(l.status) : isFinalTransferStatus(l.status);
      this.record({ type: 'status', intent: v.id, status: l.status, final });
    }
    if (l.copies > 1) await this.flagCopies(this.view(v.id), l);
  }

  /** Stops driving intents (they stay in the journal as they are) and waits for the loops to end. */
  async stop(): Promise<void> {
    this.stopped = true;
    for (const wake of [...this.sleepers]) wake();
    await Promise.allSettled([...this.running.values()]);
  }

  private view(id: string): IntentView {
    const v = this.journal.intent(id);
    if (!v) throw new Error(`no intent ${id} in the journal`);
    return v;
  }

  private record(body: IntentBody): void {
    this.journal.append(body);
    const event: WriteEvent = { record: body.type, intent: this.view(body.intent) };
    if (body.type === 'result' && body.outcome === 'accepted' && event.intent.kind === 'sub_account_key_delete') {
      try {
        this.keyGone?.(String(event.intent.body.user_id), String(event.intent.body.key));
      } catch {
        // The key is gone at the exchange either way; a desk that still holds it is only refused.
      }
    }
    for (const fn of this.listeners) {
      try {
        fn(event);
      } catch {
        // A listener's failure must not stop a write half-way.
      }
    }
  }

  private drive(id: string): Promise<IntentView> {
    const current = this.running.get(id);
    if (current) return current;
    // Another executor over the same journal (the one a lock, an unlock or a profile switch replaced,
    // still finishing a request) may be driving this intent: wait for it to end, then look again, so
    // that two executors never send the same intent side by side.
    const drivers = driversOf(this.journal);
    const other = drivers.get(id);
    const p: Promise<IntentView> = (other ?? Promise.resolve())
      .catch(() => undefined)
      .then(() => this.loop(id))
      .finally(() => {
        this.running.delete(id);
        if (drivers.get(id) === p) drivers.delete(id);
      });
    this.running.set(id, p);
    drivers.set(id, p);
    return p;
  }

  private async loop(id: string): Promise<IntentView> {
    for (;;) {
      const v = this.view(id);
      if (this.stopped || this.blocked(v) !== null) return v;
      switch (v.state) {
        case 'approved':
          await this.sendOnce(v);
          break;
        case 'in_flight':
          // Only a previous run leaves this (a "sent" with no outcome): the request may have landed.
          this.onAmbiguous(v, 'the desk stopped while the request was out');
          break;
        case 'unconfirmed':
          await this.resolveOnce(v);
          break;
        default:
          return v;
      }
    }
  }

  /**
   * Whether the write was approved before this process opened the journal: a restart, or a restored copy
   * of the data folder, where an earlier attempt may have landed. For a governed write, governance's
   * approval time decides, whatever the journal recorded when it was handed over.
   */
  private approvedEarlier(id: string): boolean {
    if (!this.journal.approvedInThisRun(id)) return true;
    const governed = governedAt.get(this.journal)?.get(id);
    return governed !== undefined && governed < this.journal.openedAt;
  }

  private async sendOnce(v: IntentView): Promise<void> {
    const spec = KINDS[v.kind];
    const earlierRun = this.approvedEarlier(v.id);
    if (earlierRun && !resendable(spec)) {
      // Approved before this run began, whatever the journal says of attempts: a restored copy of the data
      // folder looks exactly like this. Without an id nothing can prove it absent, so it is never sent.
      return this.onAmbiguous(v, 'it was approved in an earlier run of the desk and this run cannot prove it was not sent');
    }
    if (earlierRun && resendable(spec) && v.attempts === 0 && !v.proven_absent) {
      // A restart, a restored folder or a lease taken over: whoever may have sent it before is gone or
      // fenced off, but its request may still be on its way. In doubt until it can no longer land.
      this.record({
        type: 'unconfirmed',
        intent: v.id,
        attempt: 0,
        reason:
          'approved before this run of the desk took it up (a restart, a restored folder or a send lease taken over): an earlier attempt may still reach the exchange',
        until: new Date(inheritedDoubtEnd(this.now(), this.doubt)).toISOString(),
      });
      return;
    }
    if (resendable(spec) && (v.attempts > 0 || earlierRun)) {
      // A resend, or a first send of an intent approved in an earlier run (a crash, or a restored copy of
      // the journal): look the id up right before it, in case an earlier attempt landed.
      const l = await this.lookup(v);
      if (l.kind === 'found') return this.recordFound(v, l);
      if (l.kind === 'unknown' && l.impossible) return this.cannotProve(v, l.reason);
      if (l.kind === 'unknown') return this.sleep();
    }
    const client = this.clientFor(v);
    if (typeof client === 'string') {
      // Certainly not sent (no request left): closed, so that nobody mistakes it for one that may have landed.
      this.record({ type: 'cancelled', intent: v.id, reason: `not sent: ${client}` });
      return;
    }
    // Fixed before the gate: a send lease must outlast it (approvals/sendLease.ts).
    const deadline = this.now() + this.doubt.requestTimeoutMs;
    const refused = this.gate ? await this.gate(v, deadline) : null;
    if (refused !== null) {
      this.record({ type: 'cancelled', intent: v.id, reason: `not sent: ${refused}` });
      return;
    }
    const attempt = v.attempts + 1;
    this.record({ type: 'sent', intent: v.id, attempt, deadline: new Date(deadline).toISOString() });
    let answer: Record<string, unknown> | undefined;
    try {
      answer = await client.request({ ...wireRequest(v.kind, v.body), deadline }, WriteAnswer);
    } catch (e) {
      const f = classifyFailure(e);
      if (f.kind === 'not_sent') {
        this.record({ type: 'retry', intent: v.id, reason: `not sent: ${f.reason}` });
        return this.sleep();
      }
      if (f.kind === 'rate_limited') {
        this.record({ type: 'retry', intent: v.id, reason: `${f.reason}: nothing was applied; sending again after a pause` });
        return this.sleep();
      }
      if (f.kind === 'refused') {
        if (resendable(spec) && (attempt > 1 || DUPLICATE_LABELS.has(f.label))) {
          // After a resend a refusal may be caused by the first attempt having landed (a reused id, a
          // spent balance): only a lookup can say which.
          const l = await this.lookup(this.view(v.id));
          if (l.kind === 'found') return this.recordFound(this.view(v.id), l);
          if (l.kind === 'unknown') {
            this.record({
              type: 'unconfirmed',
              intent: v.id,
              attempt,
              reason: `refused with ${f.label} on attempt ${attempt}; checking whether an earlier attempt landed`,
              until: new Date(deadline + this.doubt.settleMs).toISOString(),
            });
            return;
          }
        }
        this.record({
          type: 'result',
          intent: v.id,
          outcome: 'refused',
          via: 'response',
          http_status: f.status,
          label: f.label,
          message: f.message,
        });
        return;
      }
      return this.onAmbiguous(this.view(v.id), f.reason);
    }
    // §4.1 does not show a conversion's answer; the live documentation (Gate API v4 "Convert small balance":
    // 200, schema None, and its SDKs return void) has no body, so whatever comes is ignored (WriteAnswer
    // takes an empty one). Its history record is looked up at once, so that the journal holds its id and
    // no later lookup of another conversion can take that record for its own.
    const converted = v.kind === 'small_balance_convert' ? await this.lookup(this.view(v.id)) : null;
    const secret = v.kind === 'sub_account_key_create' ? takeSecret(answer) : null;
    const kept = secret ? await this.keepSecret(v, answer, secret) : null;
    const exchangeId =
      answer?.id ?? answer?.tx_id ?? answer?.key ?? answer?.user_id ?? (converted?.kind === 'found' ? converted.exchange_id : undefined);
    this.record({
      type: 'result',
      intent: v.id,
      outcome: 'accepted',
      via: 'response',
      ...(exchangeId !== undefined && exchangeId !== null ? { exchange_id: String(exchangeId) } : {}),
      ...(typeof answer?.status === 'string' ? { status: answer.status } : {}),
    });
    if (v.kind === 'sub_account_key_create' && kept !== null) this.secretLost(this.view(v.id), kept);
    // §4.1 answers a main/sub transfer with its tx_id only: its §3.3 status comes from /wallet/order_status,
    // asked at once (and by pollStatuses until it is final).
    if (v.kind === 'main_sub_transfer') await this.confirmStatus(this.view(v.id));
  }

  /**
   * Puts a new key's secret into the vault for its sub-account, then wipes this copy. Answers why it could
   * not be kept (the key then exists at the exchange without a secret the desk holds), or null.
   */
  private async keepSecret(v: IntentView, answer: Record<string, unknown> | undefined, secret: Buffer): Promise<string | null> {
    try {
      if (!this.keySink) return 'this desk keeps no sub-account keys';
      if (typeof answer?.key !== 'string') return 'the answer named no key';
      await this.keySink(String(v.body.user_id), answer.key, secret);
      return null;
    } catch (e) {
      // The sink's own words, never the answer: its message holds no secret.
      return (e as Error).message;
    } finally {
      secret.fill(0);
    }
  }

  private secretLost(v: IntentView, why: string): void {
    this.record({
      type: 'needs_attention',
      intent: v.id,
      reason: `The exchange made key ${v.client_id} for sub-account ${String(v.body.user_id)}, but the desk holds no secret for it (${why}). Disable that key, then create another.`,
    });
  }

  /** The client whose key signs `v`, or why none can. */
  private clientFor(v: IntentView): WriteClient | string {
    const signs = KINDS[v.kind].signer;
    if (signs === 'main')
      return v.signer === undefined
        ? this.client
        : `a ${KINDS[v.kind].what} is signed by the main key, yet it names sub-account ${v.signer}`;
    if (v.signer === undefined)
      return signs === 'either' ? this.client : `the ${KINDS[v.kind].what} names no sub-account whose key signs it`;
    if (!this.subClient) return `this desk signs nothing with a sub-account's key`;
    try {
      return this.subClient(v.signer);
    } catch (e) {
      return (e as Error).message;
    }
  }

  private onAmbiguous(v: IntentView, reason: string): void {
    const spec = KINDS[v.kind];
    if (resendable(spec) || v.kind === 'uid_transfer') {
      // An attempt of an earlier run left no deadline (older journals) or a past one: doubtEnd reads it.
      const until = v.attempts > 0 ? doubtEnd(v, this.doubt) : inheritedDoubtEnd(this.now(), this.doubt);
      this.record({ type: 'unconfirmed', intent: v.id, attempt: v.attempts, reason, until: new Date(until).toISOString() });
      return;
    }
    this.record({
      type: 'needs_attention',
      intent: v.id,
      reason: `The ${spec.what} got no clear answer (${reason}). The API gives this kind of transfer no id to look up, so the desk will not send it again: check both accounts' balances, then settle it as done or not done.`,
    });
  }

  private async resolveOnce(v: IntentView): Promise<void> {
    const spec = KINDS[v.kind];
    const askedAt = this.now();
    const l = await this.lookup(v);
    if (l.kind === 'found') {
      if (v.kind === 'uid_transfer' && l.copies > 1) {
        this.record({
          type: 'needs_attention',
          intent: v.id,
          reason: `The UID transfer got no clear answer, and ${l.copies} outgoing UID transfers to user ${String(v.body.receive_uid)} of ${String(v.body.amount)} ${String(v.body.currency)} match it. Check which one is this transfer, then settle it.`,
        });
        return;
      }
      return this.recordFound(v, l);
    }
    if (l.kind === 'unknown') {
      if (l.impossible) return this.cannotProve(v, l.reason);
      if (l.refusedLabel !== undefined) {
        this.record({
          type: 'needs_attention',
          intent: v.id,
          reason: `The ${spec.what} got no clear answer, and the exchange refused the desk's check (${l.refusedLabel}: ${l.reason}). It will not be sent again: check the exchange's records, then settle it.`,
        });
        return;
      }
      return this.sleep();
    }
    this.record({ type: 'lookup', intent: v.id, found: false, asked_at: new Date(askedAt).toISOString() });
    const after = this.view(v.id);
    // The guard of rule 2: "absent" counts only once no earlier attempt can land any more.
    if (!provenAbsent(after, this.doubt)) return this.sleep();
    const span = (after.last_absent_at ?? 0) - (after.first_absent_at ?? 0);
    if (resendable(spec)) {
      this.record({
        type: 'retry',
        intent: v.id,
        reason: `${v.client_id ? `id ${v.client_id}` : 'no effect'} absent over ${after.absent_lookups} lookups, the last after its doubt ended at ${new Date(doubtEnd(after, this.doubt)).toISOString()}; sending again`,
      });
      return;
    }
    this.record({
      type: 'needs_attention',
      intent: v.id,
      reason: `The UID transfer got no clear answer and no matching record appeared over ${Math.round(span / 1000)} s, so it most likely did not happen. The API gives it no id, so the desk cannot prove it and will not send it again: check the account, then settle it (and send it again by hand if needed).`,
    });
  }

  private cannotProve(v: IntentView, reason: string): void {
    this.record({
      type: 'needs_attention',
      intent: v.id,
      reason: `The ${KINDS[v.kind].what} got no clear answer and the desk cannot prove it absent (${reason}). It will not be sent again: check the exchange's records, then settle it.`,
    });
  }

  private lookup(v: IntentView): Promise<Lookup> {
    if (v.kind === 'spot_order' || v.kind === 'spot_cancel' || v.kind === 'spot_cancel_all') {
      // Looked up with the key that placed it: a sub-account's orders are its own.
      const client = this.clientFor(v);
      if (typeof client === 'string') return Promise.resolve({ kind: 'unknown', impossible: true, reason: client });
      return v.kind === 'spot_order' ? lookupSpotOrder(client, v, this.now()) : lookupCancel(client, v);
    }
    if (v.kind === 'small_balance_convert') {
      // The account's own history and balance, read with its own key.
      const client = this.clientFor(v);
      if (typeof client === 'string') return Promise.resolve({ kind: 'unknown', impossible: true, reason: client });
      return lookupSmallBalance(client, v, this.claimedConversions(v));
    }
    switch (v.kind) {
      case 'withdrawal':
        return lookupWithdrawal(this.client, v, this.now());
      case 'main_sub_transfer':
        return lookupTransfer(this.client, v);
      case 'uid_transfer':
        return reconcileUidTransfer(this.client, v, this.claimedUidTransfers(v.id), this.now());
      default:
        if (isManagementKind(v.kind)) return lookupManagement(this.client, v);
        return Promise.resolve({ kind: 'unknown', reason: 'this kind of write cannot be looked up' });
    }
  }

  /** History records of the same account's conversions that other intents already account for. */
  private claimedConversions(v: IntentView): Set<string> {
    return new Set(
      this.journal
        .intents()
        .filter((o) => o.kind === v.kind && o.id !== v.id && o.signer === v.signer && o.exchange_id !== undefined)
        .map((o) => o.exchange_id!),
    );
  }

  /** Exchange ids of UID transfers other intents already account for. */
  private claimedUidTransfers(except: string): Set<string> {
    return new Set(
      this.journal
        .intents()
        .filter((o) => o.kind === 'uid_transfer' && o.id !== except && o.exchange_id !== undefined)
        .map((o) => o.exchange_id!),
    );
  }

  private async recordFound(v: IntentView, l: Found): Promise<void> {
    const via = v.kind === 'uid_transfer' ? 'records' : 'lookup';
    const ids = l.exchange_id !== undefined ? { exchange_id: l.exchange_id } : {};
    if (l.status !== undefined && FAILED_STATUSES[v.kind]?.has(l.status)) {
      const message =
        v.kind === 'spot_cancel'
          ? 'The order was filled before the cancellation reached it; nothing was cancelled.'
          : `The exchange recorded the ${KINDS[v.kind].what} with status ${l.status}; nothing moved.`;
      this.record({ type: 'result', intent: v.id, outcome: 'refused', via, ...ids, status: l.status, message });
      return;
    }
    this.record({
      type: 'result',
      intent: v.id,
      outcome: 'accepted',
      via,
      ...ids,
      ...(l.status !== undefined ? { status: l.status } : {}),
    });
    if (l.copies > 1) await this.flagCopies(this.view(v.id), l);
    // Found by its name after an unclear answer: the answer that carried the secret is gone for good.
    else if (v.kind === 'sub_account_key_create')
      this.secretLost(this.view(v.id), 'its secret came only in the answer the desk did not get');
  }

  /**
   * The last line, not the mechanism: the exchange holds the write more than once. Later copies are
   * cancelled where the exchange allows it; what is left is named for an operator.
   */
  private async flagCopies(v: IntentView, l: Found): Promise<void> {
    const left = await undoCopies(this.client, v, l, (body) => this.record(body));
    if (left === 0) return;
    this.record({
      type: 'needs_attention',
      intent: v.id,
      reason: `The exchange holds ${l.copies} ${KINDS[v.kind].what}s with id ${v.client_id}: it was applied more than once, and ${left} extra ${left === 1 ? 'copy' : 'copies'} could not be cancelled by the desk. Check the exchange's records, then settle this intent.`,
    });
  }

  private sleep(): Promise<void> {
    if (this.stopped) return Promise.resolve();
    return new Promise((resolve) => {
      const wake = (): void => {
        clearTimeout(t);
        this.sleepers.delete(wake);
        resolve();
      };
      const t = setTimeout(wake, this.intervalMs);
      this.sleepers.add(wake);
    });
  }
}
