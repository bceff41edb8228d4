import { WriteAnswer } from '../../../shared/api/records.ts';
import { HeldBackError } from '../errors.ts';
import type { IntentView } from '../journal/intents.ts';
import type { Journal } from '../journal/journal.ts';
import type { IntentBody, OperatorSignature } from '../journal/records.ts';
import { DEFAULT_REQUEST_TIMEOUT_MS, DEFAULT_SETTLE_MS, inheritedDoubtEnd, type DoubtRules } from './doubt.ts';
import { driversOf, governedAt, governedAtOf } from './drivers.ts';
import type { ExecutorOptions, IntentExtra, WriteEvent } from './executorOptions.ts';
import { newOrderId } from './ids.ts';
import { buildBody, KINDS, resendable, signerOf, wireRequest, type WriteInput } from './inputs.ts';
import type { WriteClient } from './lookups.ts';
import { classifyFailure, DUPLICATE_LABELS } from './outcome.ts';
import { keepSecret, takeSecret } from './subKeySecret.ts';
import { cannotProve, confirmStatus, lookup, onAmbiguous, recordFound, resolveOnce, secretLost, type ResolveCtx } from './resolve.ts';

export type { ExecutorOptions, IntentExtra, WriteEvent } from './executorOptions.ts';

// Exactly-once writes (docs/failure-modes.md §In doubt). The rules, in order of importance:
// 1. Nothing leaves before the journal holds it: the intent, the approval, and a "sent" record per attempt
//    with its deadline, at which the client aborts it.
// 2. A write whose answer did not come is in doubt until its deadline plus the settle window (doubt.ts);
//    it is sent again only when two lookups of its id find it absent, the last one asked after that. A
//    write without an id is never sent again.
// 3. The exchange is never trusted to refuse a reused id; the desk's own lookups are the only guard, and
//    a duplicate they find anyway is cancelled where the exchange allows it (duplicates.ts).

export const DEFAULT_LOOKUP_INTERVAL_MS = 5_000;

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
  /** What resolving an unclear answer (resolve.ts) may use of this executor. */
  private readonly ctx: ResolveCtx;

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
    this.ctx = {
      journal: this.journal,
      client: this.client,
      doubt: this.doubt,
      now: this.now,
      clientFor: (v) => this.clientFor(v),
      record: (body) => this.record(body),
      view: (id) => this.view(id),
      sleep: () => this.sleep(),
    };
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
        ...(extra.decided ? { decided: extra.decided } : {}),
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
    for (const v of watched) await confirmStatus(this.ctx, v);
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
    if (body.type === 'result' && body.outcome === 'accepted' && event.intent.kind === 'spot_cancel')
      this.orderEnded(event.intent, body.status);
    for (const fn of this.listeners) {
      try {
        fn(event);
      } catch {
        // A listener's failure must not stop a write half-way.
      }
    }
  }

  /**
   * A cancel the exchange took answers the order's status then (§4.4: the order as it stands): the order's
   * own intent takes it, so its row says cancelled (or closed, filled first), not the "open" it was placed with.
   */
  private orderEnded(cancel: IntentView, status: string | undefined): void {
    if (status === undefined) return;
    const order = this.journal
      .intents()
      .find(
        (o) =>
          o.kind === 'spot_order' &&
          o.exchange_id === String(cancel.body.order_id) &&
          o.body.currency_pair === cancel.body.currency_pair &&
          o.signer === cancel.signer,
      );
    if (!order || order.status === status) return;
    this.record({ type: 'status', intent: order.id, status, final: status !== 'open' });
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
          onAmbiguous(this.ctx, v, 'the desk stopped while the request was out');
          break;
        case 'unconfirmed':
          await resolveOnce(this.ctx, v);
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
      return onAmbiguous(this.ctx, v, 'it was approved in an earlier run of the desk and this run cannot prove it was not sent');
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
      const l = await lookup(this.ctx, v);
      if (l.kind === 'found') return recordFound(this.ctx, v, l);
      if (l.kind === 'unknown' && l.impossible) return cannotProve(this.ctx, v, l.reason);
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
      // The gate and `blocked` were asked before the request queued for its rate window (up to §8.2's 3 s
      // for a withdrawal): a freeze signed meanwhile stops it as it leaves the queue.
      const heldBy = (): string | null => this.blocked(this.view(v.id));
      answer = await client.request({ ...wireRequest(v.kind, v.body), deadline, heldBy }, WriteAnswer);
    } catch (e) {
      const f = classifyFailure(e);
      if (f.kind === 'not_sent') {
        this.record({ type: 'retry', intent: v.id, reason: `not sent: ${f.reason}` });
        // Held back: the loop returns it unsent, and resume() takes it up when what held it is lifted.
        return e instanceof HeldBackError ? undefined : this.sleep();
      }
      if (f.kind === 'rate_limited') {
        this.record({ type: 'retry', intent: v.id, reason: `${f.reason}: nothing was applied; sending again after a pause` });
        return this.sleep();
      }
      if (f.kind === 'refused') {
        if (resendable(spec) && (attempt > 1 || DUPLICATE_LABELS.has(f.label))) {
          // After a resend a refusal may be caused by the first attempt having landed (a reused id, a
          // spent balance): only a lookup can say which.
          const l = await lookup(this.ctx, this.view(v.id));
          if (l.kind === 'found') return recordFound(this.ctx, this.view(v.id), l);
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
      return onAmbiguous(this.ctx, this.view(v.id), f.reason);
    }
    // §4.1 does not show a conversion's answer; the live documentation (Gate API v4 "Convert small balance":
    // 200, schema None, and its SDKs return void) has no body, so whatever comes is ignored (WriteAnswer
    // takes an empty one). Its history record is looked up at once, so that the journal holds its id and
    // no later lookup of another conversion can take that record for its own.
    const converted = v.kind === 'small_balance_convert' ? await lookup(this.ctx, this.view(v.id)) : null;
    const secret = v.kind === 'sub_account_key_create' ? takeSecret(answer) : null;
    const kept = secret ? await keepSecret(this.keySink, v, answer, secret) : null;
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
    if (v.kind === 'sub_account_key_create' && kept !== null) secretLost(this.ctx, this.view(v.id), kept);
    // §4.1 answers a main/sub transfer with its tx_id only: its §3.3 status comes from /wallet/order_status,
    // asked at once (and by pollStatuses until it is final).
    if (v.kind === 'main_sub_transfer') await confirmStatus(this.ctx, this.view(v.id));
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
