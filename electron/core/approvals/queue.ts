import type { z } from 'zod';
import { BatchPayload, type BatchKind, type BatchRow, type BatchStatus } from '../../../shared/api/batch.ts';
import type { ApprovalItem, ApprovalsState, RequestStatus, TeamVerifyAnswer } from '../../../shared/ipc.ts';
import type { Decision } from '../../../shared/api/policy.ts';
import type { OperatorSignature } from '../journal/records.ts';
import { activeAt, DEFAULT_COOLING_OFF_MS, roleAhead, roleAt, type Proposal, type RequestPayload } from '../governance/state.ts';
import type { DomainGovernance } from './domains.ts';
import type { Reviewer } from './review.ts';
import type { Approvals } from './service.ts';
import { batchSummary, summarize } from './summary.ts';
import { operatorsFor, wedgeMargin } from './wedge.ts';

// What the Approvals page, the batch runners and a page's request status read of the active profile's
// governance: the operators, the policy, every request, batch and change with where it stands, and a
// team's Verify. Nothing here writes.

export interface QueueOptions {
  domains: DomainGovernance;
  reviewer: Reviewer;
  now: () => number;
  /** The Sandbox profile's cooling-off, as the desk was started with it (DeskApprovalsOptions). */
  coolingOffMs: number;
}

export class ApprovalQueue {
  private readonly now: () => number;

  constructor(private readonly opts: QueueOptions) {
    this.now = opts.now;
  }

  /** Verify of the active profile's team records: every row read again and verified; `team: false` off a team. */
  async verifyTeam(): Promise<TeamVerifyAnswer> {
    const { approvals } = this.opts.domains.forActive();
    const audit = approvals.audit();
    return audit ? { team: true, ...(await audit) } : { team: false };
  }

  async state(): Promise<z.input<typeof ApprovalsState>> {
    const { approvals, session } = this.opts.domains.forActive();
    const s = await approvals.load();
    const policy = await approvals.policyStatus(session.id);
    const now = this.now();
    const items: ApprovalItem[] = [...s.proposals.values()]
      // An auditor profile audits the team's whole queue: every profile's requests, not its own (it has none).
      .filter((p) => p.what !== 'request' || p.profile === session.id || session.profile.auditor === true)
      .map((p) => this.item(approvals, p, now, s.operators))
      .sort((a, b) => b.drafted_at - a.drafted_at);
    return {
      operators: [...s.operators.values()].map((o) => ({
        id: o.id,
        name: o.name,
        role: roleAt(o, Math.max(now, o.active_from)),
        role_ahead: roleAhead(o),
        state: activeAt(o, now)
          ? ('in_force' as const)
          : o.removed_from !== null && o.removed_from <= now
            ? ('removed' as const)
            : ('pending' as const),
      })),
      needs_first_operator: s.operators.size === 0,
      policy: {
        rules: policy.policy.rules,
        ...(policy.policy.request_expiry_hours !== undefined ? { request_expiry_hours: policy.policy.request_expiry_hours } : {}),
        ref: policy.ref,
        refused: policy.refused,
      },
      change_quorum: approvals.changeQuorum(),
      resilience: resilienceOf(s, session.id, now),
      cooling_off_hours: this.opts.domains.coolingOff(this.opts.domains.domainOf(session.id)) / 3_600_000,
      cooling_off_variable: this.opts.domains.domainOf(session.id) === 'sandbox' && this.opts.coolingOffMs !== DEFAULT_COOLING_OFF_MS,
      frozen: s.frozen,
      ...(approvals.readOnly ? { read_only: approvals.readOnly } : {}),
      items,
      blocked: this.opts.reviewer.blockedReason(session) ?? policy.refused,
    };
  }

  private item(approvals: Approvals, p: Proposal, now: number, operators: ReadonlyMap<string, { name: string }>): ApprovalItem {
    const expiry = approvals.expiry(p);
    const names = (ids: string[]): string[] =>
      ids.map((id) =>
        id === p.drafted_by.operator ? p.drafted_by.name : (p.signoffs.find((x) => x.signed.operator === id)?.signed.name ?? id),
      );
    const req = p.what === 'request' ? (JSON.parse(p.payload) as RequestPayload) : null;
    const batch = p.what === 'batch' ? (JSON.parse(p.payload) as BatchPayload) : null;
    // Approved under a gentler policy and not handed over yet: it waits for the approvals the policy now asks.
    const held = (req || batch) && p.approved_at !== null && !p.dispatched && !approvals.stillApproved(p);
    // What the request needs now (the stricter of its drafter's verdict and the policy in force), rule by rule.
    const verdict = req || batch ? approvals.verdictNow(p) : null;
    const state: ApprovalItem['state'] = p.rejected
      ? 'rejected'
      : expiry.expired
        ? 'expired'
        : p.approved_at === null || held
          ? 'waiting'
          : req || batch
            ? p.dispatched
              ? 'sent'
              : 'approved'
            : p.effective_at! > now
              ? 'cooling_off'
              : 'in_force';
    const j = judged(approvals, p, state === 'waiting', now);
    return {
      ref: p.ref,
      what: p.what,
      ...(p.profile ? { profile: p.profile } : {}),
      ...(req ? { kind: req.kind, body: req.body, ...(req.signer ? { signer: req.signer } : {}), verdict: verdict! } : {}),
      ...(batch ? { kind: batch.batch, verdict: verdict! } : {}),
      summary: batch ? batchSummary(batch) : summarize(p, req, (id) => operators.get(id)?.name ?? id),
      drafted_by: p.drafted_by.name,
      drafted_at: p.drafted_at,
      approved_by: names(j.approvers),
      // A blocked request can only be rejected; its verdict says which rule blocks it.
      needed: j.needed,
      state,
      expires_at: p.approved_at === null ? expiry.at : null,
      effective_at: p.effective_at,
      rejected: p.rejected ? { by: p.rejected.signed.name, reason: p.rejected.reason } : null,
      ...(j.decided !== undefined ? { decided: j.decided } : {}),
      ...deskNames(approvals, p),
    };
  }

  /** A batch of the active profile as the governance records hold it, or null. */
  async batchStatus(ref: string): Promise<BatchStatus | null> {
    const { approvals, session } = this.opts.domains.forActive();
    const p = (await approvals.load()).proposals.get(ref);
    if (!p || p.what !== 'batch' || p.profile !== session.id) return null;
    const waiting = p.approved_at === null || (!p.dispatched && !approvals.stillApproved(p));
    const j = judged(approvals, p, waiting && !p.rejected && !approvals.expiry(p).expired, this.now());
    const state = p.rejected
      ? 'rejected'
      : approvals.expiry(p).expired
        ? 'expired'
        : waiting
          ? 'waiting'
          : p.dispatched
            ? 'sent'
            : 'approved';
    return {
      ref,
      state,
      payload: BatchPayload.parse(JSON.parse(p.payload)),
      approved_by: this.approverNames(p, j.approvers),
      needed: j.needed,
      ...(j.decided !== undefined ? { decided: j.decided } : {}),
    };
  }

  private approverNames(p: Proposal, approvers: readonly string[]): string[] {
    return approvers.map((id) =>
      id === p.drafted_by.operator ? p.drafted_by.name : (p.signoffs.find((x) => x.signed.operator === id)?.signed.name ?? id),
    );
  }

  /**
   * The active profile's batches of a kind, oldest first: every one the governance records hold (from its
   * drafter's signature on), and drafts still waiting for that signature in the confirmation window.
   */
  async batchesOf(kind: BatchKind): Promise<{ ref: string; drafted_at: number; payload: BatchPayload; signed: boolean }[]> {
    const { approvals, session } = this.opts.domains.forActive();
    const mine = (profile: string | undefined, what: string, payload: string): BatchPayload | null => {
      if (what !== 'batch' || profile !== session.id) return null;
      const b = BatchPayload.parse(JSON.parse(payload));
      return b.batch === kind ? b : null;
    };
    const out: { ref: string; drafted_at: number; payload: BatchPayload; signed: boolean }[] = [];
    for (const p of (await approvals.load()).proposals.values()) {
      const payload = mine(p.profile, p.what, p.payload);
      if (payload) out.push({ ref: p.ref, drafted_at: p.drafted_at, payload, signed: true });
    }
    for (const t of approvals.pendingTickets()) {
      const payload = t.action === 'draft' ? mine(t.profile, t.what, t.payload) : null;
      if (payload) out.push({ ref: t.ref, drafted_at: t.created_at, payload, signed: false });
    }
    return out.sort((a, b) => a.drafted_at - b.drafted_at);
  }

  /** An approved batch's rows and the signatures its rows are journaled with (null while it is not approved). */
  async approvedBatch(
    ref: string,
  ): Promise<{ rows: BatchRow[]; signatures: OperatorSignature[]; by: string; approved_at: number; decided?: Decision } | null> {
    const { approvals, session } = this.opts.domains.forActive();
    const p = (await approvals.load()).proposals.get(ref);
    if (!p || p.what !== 'batch' || p.profile !== session.id || p.approved_at === null || p.rejected) return null;
    const sigs = approvals.signaturesOf(p);
    return {
      rows: (JSON.parse(p.payload) as BatchPayload).rows,
      signatures: sigs,
      by: [...new Set(sigs.map((x) => x.name))].join(', '),
      approved_at: p.approved_at,
      ...(p.decided ? { decided: p.decided } : {}),
    };
  }

  /** Where a request drafted from a page stands, from its drafter's signature to the journal's final state. */
  async requestStatus(ref: string): Promise<RequestStatus> {
    const { approvals, session } = this.opts.domains.forActive();
    const p = (await approvals.load()).proposals.get(ref);
    const intent = session.journal?.intent(ref) ?? null;
    if (!p || p.what !== 'request' || p.profile !== session.id) {
      // Tickets live in memory: one neither pending nor signed was declined, or the desk restarted.
      const toSign = approvals.pendingTickets().some((t) => t.ref === ref && t.action === 'draft');
      return { ref, state: toSign ? 'to_sign' : 'gone', approved_by: [], needed: 0, rejected: null, expires_at: null, intent };
    }
    const waiting = p.approved_at === null || (!p.dispatched && !approvals.stillApproved(p));
    const rejected = p.rejected ? { by: p.rejected.signed.name, reason: p.rejected.reason } : null;
    const expiry = approvals.expiry(p);
    const state = rejected ? 'rejected' : expiry.expired ? 'expired' : waiting ? 'waiting' : p.dispatched ? 'sent' : 'approved';
    const j = judged(approvals, p, state === 'waiting', this.now());
    return {
      ref,
      state,
      approved_by: this.approverNames(p, j.approvers),
      needed: j.needed,
      ...(j.decided !== undefined ? { decided: j.decided } : {}),
      rejected,
      expires_at: p.approved_at === null ? expiry.at : null,
      intent,
    };
  }
}

/**
 * What a proposal needs and whose approvals count: while it waits, under the policy in force now; once decided
 * (approved, sent, rejected, expired), as it was decided, with the decision recorded then. A later policy
 * never relabels it: the Approvals page, a request's and a batch's status all read it here.
 */
function judged(
  approvals: Approvals,
  p: Proposal,
  waiting: boolean,
  now: number,
): { needed: number; approvers: string[]; decided?: Decision | null } {
  const expiry = approvals.expiry(p);
  const decidedAt = p.rejected ? p.rejected.at : expiry.expired ? expiry.at! : p.approved_at;
  const q = approvals.quorum(p, waiting ? now : (decidedAt ?? now));
  const needed = !waiting && p.decided?.quorum != null ? p.decided.quorum : Number.isFinite(q.needed) ? q.needed : 0;
  if (waiting) return { needed, approvers: q.approvers };
  return { needed, approvers: q.approvers, decided: expiry.expired ? approvals.judgedAt(p, expiry.at!) : p.decided };
}

/** On a team store, the desk each signature of `p` was made at (the drafter's, then each approver's). */
function deskNames(approvals: Approvals, p: Proposal): Pick<ApprovalItem, 'desks'> {
  const d = approvals.desks(p.ref);
  if (!d?.drafted) return {};
  const signed = [
    { name: p.drafted_by.name, desk: d.drafted },
    ...p.signoffs.flatMap((x) => {
      const desk = d.signed.get(x.signed.operator);
      return desk ? [{ name: x.signed.name, desk }] : [];
    }),
  ];
  return { desks: { drafted: d.drafted, signed, here: d.here } };
}

function resilienceOf(s: Parameters<typeof wedgeMargin>[0], profile: string, at: number) {
  const w = wedgeMargin(s, profile, at);
  return { strictest: w.need.what, needs: operatorsFor(w.need), signers: w.signers, margin: w.margin, able: w.able };
}
