import { Policy } from '../../../shared/api/policy.ts';
import { REPLAY_DAYS, type PolicyReplay } from '../../../shared/api/replay.ts';
import type { HandlerDeps, Handlers } from '../handlerDeps.ts';
import { needApprovals } from '../handlerGuards.ts';
import { changeBody } from '../governance/state.ts';
import { withdrawalIntent } from '../history/outflows.ts';

type ApprovalChannels =
  | 'approvalsState'
  | 'batchStatus'
  | 'requestStatus'
  | 'approvalsReview'
  | 'approvalsDraft'
  | 'approvalsDecide'
  | 'approvalsProposePolicy'
  | 'approvalsRemoveOperator'
  | 'approvalsSetRole'
  | 'policyReplay'
  | 'approvalsFreeze'
  | 'approvalsUnfreeze'
  | 'addressBookList'
  | 'addressBookAdd'
  | 'addressBookRemove';

export const approvalHandlers: Pick<Handlers, ApprovalChannels> = {
  approvalsState: async (_req, deps) => needApprovals(deps).state(),
  batchStatus: async (req, deps) => {
    const status = await needApprovals(deps).batchStatus(req.ref);
    if (!status) return null;
    const journal = deps.session.active().journal;
    return { ...status, intents: status.payload.rows.map((r) => journal?.intent(r.ref) ?? null) };
  },
  requestStatus: async (req, deps) => needApprovals(deps).requestStatus(req.ref),
  approvalsReview: async (req, deps) => needApprovals(deps).review(req.write),
  approvalsDraft: async (req, deps) => needApprovals(deps).draft(req.write, req.note),
  approvalsDecide: async (req, deps) => {
    const a = needApprovals(deps);
    const t = await a.ticketFor((x) => x.decisionTicket(req.ref, req.action, req.reason));
    const p = (await a.forActive().approvals.load()).proposals.get(req.ref);
    // Whoever approves a policy sees its replay too, computed now.
    if (p?.what === 'policy') await withReplay(deps, t.ticket, Policy.parse(changeBody(p.payload).body));
    return t;
  },
  approvalsProposePolicy: async (req, deps) => {
    const a = needApprovals(deps);
    const t = await a.ticketFor((x) => x.policyTicket(a.forActive().session.id, req.policy));
    await withReplay(deps, t.ticket, req.policy);
    return t;
  },
  policyReplay: async (req, deps) => replayFor(deps, req.policy),
  approvalsSetRole: async (req, deps) => needApprovals(deps).ticketFor((a) => a.roleTicket(req.id, req.role)),
  approvalsRemoveOperator: async (req, deps) => needApprovals(deps).ticketFor((a) => a.removeOperatorTicket(req.id)),
  approvalsFreeze: async (req, deps) => needApprovals(deps).ticketFor((a) => a.freezeTicket(req.reason)),
  approvalsUnfreeze: async (_req, deps) => needApprovals(deps).ticketFor((a) => a.unfreezeTicket()),
  addressBookList: async (_req, deps) => needApprovals(deps).book.withReadiness(),
  addressBookAdd: async (req, deps) => needApprovals(deps).addressBookTicket(req),
  addressBookRemove: async (req, deps) => needApprovals(deps).addressBookRemoveTicket(req),
};

/** A policy replayed against the last 30 days (see DeskApprovals.replay, policyReplay.ts). */
async function replayFor(deps: HandlerDeps, policy: Policy): Promise<PolicyReplay> {
  const session = deps.session.active();
  const intents = session.journal?.intents() ?? [];
  // The exchange's withdrawals this desk did not send; its own are replayed from their signed requests.
  const since = Date.now() - REPLAY_DAYS * 86_400_000;
  const theirs = deps.history
    .of(session)
    .db.since('withdrawals', since)
    .filter((r) => !withdrawalIntent(r.wire, intents))
    .map((r) => ({ at: r.ts, wire: r.wire }));
  return needApprovals(deps).replay(policy, theirs);
}

/** The replay beside a policy ticket; a replay that cannot be made (the exchange unreachable) leaves the ticket without it. */
async function withReplay(deps: HandlerDeps, ticket: string, policy: Policy): Promise<void> {
  try {
    const a = needApprovals(deps);
    a.forActive().approvals.annotate(ticket, await replayFor(deps, policy));
    // The confirmation window read the ticket when it was made: it reads it again with its replay.
    a.notify();
  } catch (e) {
    deps.log?.(`[approvals] no replay for the policy ticket: ${(e as Error).message}`);
  }
}
