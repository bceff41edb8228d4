import type { Handlers } from '../handlerDeps.ts';
import { needApprovals } from '../handlerGuards.ts';

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
  | 'approvalsFreeze'
  | 'approvalsUnfreeze'
  | 'addressBookList'
  | 'addressBookAdd';

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
  approvalsDecide: async (req, deps) => needApprovals(deps).ticketFor((a) => a.decisionTicket(req.ref, req.action, req.reason)),
  approvalsProposePolicy: async (req, deps) => {
    const a = needApprovals(deps);
    return a.ticketFor((x) => x.policyTicket(a.forActive().session.id, req.policy));
  },
  approvalsSetRole: async (req, deps) => needApprovals(deps).ticketFor((a) => a.roleTicket(req.id, req.role)),
  approvalsRemoveOperator: async (req, deps) => needApprovals(deps).ticketFor((a) => a.removeOperatorTicket(req.id)),
  approvalsFreeze: async (req, deps) => needApprovals(deps).ticketFor((a) => a.freezeTicket(req.reason)),
  approvalsUnfreeze: async (_req, deps) => needApprovals(deps).ticketFor((a) => a.unfreezeTicket()),
  addressBookList: async (_req, deps) => needApprovals(deps).book.withReadiness(),
  addressBookAdd: async (req, deps) => needApprovals(deps).addressBookTicket(req),
};
