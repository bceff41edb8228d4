import type { BatchPayload } from '../../../shared/api/batch.ts';
import { RATE_RULES } from '../../../shared/api/rateLimits.ts';
import type { OperatorSignature } from '../journal/records.ts';
import { containKind } from '../governance/management.ts';
import type { Proposal, RequestPayload } from '../governance/state.ts';
import type { ActiveSession, Session } from '../session.ts';
import type { DomainGovernance } from './domains.ts';
import { keepLeases } from './leaseKeeper.ts';
import { gateRefusal, isApproved, type GatedWrite } from './sendGate.ts';
import { leaseRefusal } from './sendLease.ts';

// Sending: the hand-over of approved requests to the active profile's executor, exactly once (on a team,
// the "dispatched" record and the send leases first; alone, the intents first), at the §8.2 pace; the
// executor's gate before every send; what holds governed writes (a freeze, a refused policy copy, a
// journal still reconciling); and, on a team, the keeping of this desk's send leases (leaseKeeper.ts).

/**
 * §8.2 pace of money leaving: approved requests are handed to the executor one at a time at this pace,
 * so that a freeze stops those still waiting (once handed over, a request is in the scheduler's queue).
 */
const PACE_MS: Record<string, number> = Object.fromEntries(
  (
    [
      ['withdrawal', 'withdraw'],
      ['uid_transfer', 'withdraw_push'],
    ] as const
  ).map(([kind, id]) => {
    const r = RATE_RULES.find((x) => x.id === id)!;
    return [kind, Math.ceil((r.windowSec * 1000) / r.limit)];
  }),
);

export interface SendingOptions {
  session: Session;
  domains: DomainGovernance;
  now: () => number;
  onChange: () => void;
  log: (line: string) => void;
  /** The lease length a stuck round of lease keeping is measured against until a team store names its own. */
  leaseMs: number;
}

export class Sending {
  private dispatching: Promise<void> = Promise.resolve();
  private readonly lastHanded = new Map<string, number>();
  /** Writes handed over under this desk's send lease and not yet given to its executor. */
  private readonly handing = new Set<string>();
  private leaseTimer: NodeJS.Timeout | null = null;
  private leaseMs: number;
  private keeping: Promise<void> | null = null;
  private keepingSince = 0;
  private keepingStuckLogged = false;
  private readonly leaseHeldFor = new Map<string, string>();
  private readonly now: () => number;

  constructor(private readonly opts: SendingOptions) {
    this.now = opts.now;
    this.leaseMs = opts.leaseMs;
  }

  keepLeasesEvery(leaseMs: number): void {
    if (this.leaseTimer) return;
    this.leaseMs = leaseMs;
    // A third of the lease: a renewal missed (a slow round, a dropped connection) still leaves two before it expires.
    this.leaseTimer = setInterval(() => void this.keepLeases(), leaseMs / 3);
    this.leaseTimer.unref();
  }

  /** Renews this desk's send leases, finishes settled ones, and takes over expired ones (leaseKeeper.ts). */
  keepLeases(): Promise<void> {
    if (this.keeping) {
      // A round that never ends would stop every renewal and take-over without a word: say so, once.
      const ms = this.now() - this.keepingSince;
      if (!this.keepingStuckLogged && ms > this.leaseMs) {
        this.keepingStuckLogged = true;
        this.opts.log(`[approvals] send leases: a round has not finished in ${ms} ms; renewals and take-overs wait for it`);
      }
      return this.keeping;
    }
    this.keepingSince = this.now();
    this.keeping = (async () => {
      try {
        const { approvals, session } = this.opts.domains.forActive();
        if (approvals.readOnly) return;
        await keepLeases({
          approvals,
          session,
          handing: this.handing,
          hold: () => this.holdReason(),
          heldFor: this.leaseHeldFor,
          log: this.opts.log,
        });
      } catch (e) {
        this.opts.log(`[approvals] send leases: ${(e as Error).message}`);
      }
    })().finally(() => {
      this.keeping = null;
      this.keepingStuckLogged = false;
    });
    return this.keeping;
  }

  /**
   * Synchronous, from the loaded state: why no write of a profile may leave now (a freeze), or null. With
   * `kind`, for that kind of write: containment of a sub-account goes while frozen (governance/management.ts).
   */
  frozenReason(profileId: string, kind?: string): string | null {
    // Nothing is handed over before the journal is reconciled: a row journaled then would count as known.
    const reconciling = this.opts.session.reconcileHold(profileId);
    if (reconciling !== null) return reconciling;
    const s = this.opts.domains.opened(profileId)?.cached();
    if (!s) {
      // Not read yet (the desk just started): hold until it is, then dispatch() resumes the executor.
      // Without this, a desk frozen before a restart would resume its approved writes at once.
      queueMicrotask(() => void this.dispatch());
      return 'the approvals are being read';
    }
    const readOnly = this.opts.domains.opened(profileId)?.readOnly;
    if (readOnly) return readOnly;
    return s.frozen && !(kind !== undefined && containKind(kind)) ? `the desk is frozen (by ${s.frozen.by})` : null;
  }

  /** Whether the active profile's governed writes (of `kind`, if given) must wait (frozen, or the policy copy refused). */
  async holdReason(kind?: string): Promise<string | null> {
    const { approvals, session } = this.opts.domains.forActive();
    if (approvals.readOnly) return approvals.readOnly;
    const reconciling = this.opts.session.reconcileHold(session.id);
    if (reconciling !== null) return reconciling;
    const s = await approvals.load();
    if (s.frozen && !(kind !== undefined && containKind(kind))) return `the desk is frozen (by ${s.frozen.by})`;
    return (await approvals.policyStatus(session.id)).refused;
  }

  /** Hands every approved request of the active profile to its executor, once; serialized. */
  dispatch(): Promise<void> {
    const run = this.dispatching.then(() => this.dispatchNow());
    this.dispatching = run.catch((e: unknown) => this.opts.log(`[approvals] dispatch failed: ${(e as Error).message}`));
    return this.dispatching;
  }

  private async dispatchNow(): Promise<void> {
    const { approvals, session } = this.opts.domains.forActive();
    // Frozen, containment still goes (readyToSend offers only that then): held for every kind, nothing does.
    if (!session.writes || (await this.holdReason('sub_account_lock')) !== null) return;
    // Intents a freeze held in the journal go on (the executor ignores those already moving).
    if ((await this.holdReason()) === null) void session.writes.resume().catch(() => {});
    for (const p of await approvals.readyToSend(session.id)) {
      const sigs = approvals.signaturesOf(p);
      const by = [...new Set(sigs.map((x) => x.name))].join(', ');
      const rows: { ref: string; kind: string; body: RequestPayload['body']; note?: string; signer?: string }[] =
        p.what === 'batch' ? (JSON.parse(p.payload) as BatchPayload).rows : [{ ref: p.ref, ...(JSON.parse(p.payload) as RequestPayload) }];
      // On a team the hand-over comes first: its record and the send leases in one transaction, so that no
      // write leaves before exactly one desk holds it. Alone, the intents come first (a crash between the
      // two finds the request not yet handed over and hands it over again, each intent once).
      const leased = approvals.leases !== null;
      if (leased) {
        for (const r of rows) this.handing.add(r.ref);
        try {
          await approvals.markDispatched(
            p.ref,
            session.id,
            rows.map((r) => r.ref),
          );
        } catch (e) {
          for (const r of rows) this.handing.delete(r.ref);
          throw e;
        }
      }
      try {
        if (!(await this.handRows(p, rows, sigs, by, session))) return;
      } finally {
        for (const r of rows) this.handing.delete(r.ref);
      }
      if (!leased) await approvals.markDispatched(p.ref, session.id);
      this.opts.onChange();
    }
  }

  /** Gives each row to the executor at the §8.2 pace; false when a freeze (or a profile switch) stopped it. */
  private async handRows(
    p: Proposal,
    rows: { ref: string; kind: string; body: RequestPayload['body']; note?: string; signer?: string }[],
    sigs: OperatorSignature[],
    by: string,
    session: ActiveSession,
  ): Promise<boolean> {
    const writes = session.writes!;
    for (const row of rows) {
      // A row an earlier run handed over is the executor's already (resume() drives it): never handed twice.
      // One journaled without its approval (a crash between the two records) is handed over to finish it.
      const held = p.what === 'batch' ? session.journal?.intent(row.ref) : undefined;
      if (held && held.state !== 'pending_approval') continue;
      const wait = (this.lastHanded.get(row.kind) ?? -Infinity) + (PACE_MS[row.kind] ?? 0) - this.now();
      if (wait > 0) await new Promise((r) => setTimeout(r, wait));
      // A freeze (or a refused policy copy) while waiting stops the rest of the batch here.
      if ((await this.holdReason(row.kind)) !== null || this.opts.session.active() !== session) return false;
      this.lastHanded.set(row.kind, this.now());
      void writes
        .dispatchApproved(row.ref, row.kind as never, row.body, sigs, by, {
          ...(p.what === 'batch' && row.note ? { note: row.note } : {}),
          ...(row.signer ? { signer: row.signer } : {}),
          ...(p.decided ? { decided: p.decided } : {}),
          approved_at: p.approved_at!,
        })
        .catch((e: unknown) => this.opts.log(`[approvals] ${row.ref}: ${(e as Error).message}`));
      if (p.what === 'batch') this.opts.onChange();
    }
    return true;
  }

  /**
   * The executor's gate for a profile: why `w` may not leave now, or null. Every send passes here, on
   * every profile; a governance store that cannot be read throws, and the write waits unsent.
   */
  async gate(profileId: string, w: GatedWrite, deadline: number): Promise<string | null> {
    const domain = this.opts.domains.domainOf(profileId);
    const approvals = this.opts.domains.forDomain(domain);
    if (approvals.readOnly) return approvals.readOnly;
    const state = await approvals.load();
    const refused = gateRefusal(state, this.opts.domains.auditOf(domain).rules, profileId, w, this.now());
    if (refused !== null || !approvals.leases) return refused;
    // On a team, only the desk holding the write's send lease sends it, renewed here before each attempt
    // and long enough to outlast it (sendLease.ts).
    const askedAt = Date.now();
    return leaseRefusal(await approvals.leases.renew(w.id), askedAt, deadline, isApproved(state, w.id));
  }

  /** Closes a batch whose runner finished with it (a rebalance); payout batches are closed by the dispatcher. */
  async closeBatch(ref: string): Promise<void> {
    const { approvals, session } = this.opts.domains.forActive();
    const p = (await approvals.load()).proposals.get(ref);
    if (p?.what === 'batch' && !p.dispatched && p.approved_at !== null) await approvals.markDispatched(ref, session.id);
    this.opts.onChange();
  }

  /** The hand-over under way, if any (a reopen of a domain waits for it). */
  settled(): Promise<void> {
    return this.dispatching;
  }

  /** Stops the lease keeping and waits for the round and the hand-over under way. */
  async close(): Promise<void> {
    if (this.leaseTimer) clearInterval(this.leaseTimer);
    await this.keeping;
    await this.dispatching;
  }
}
