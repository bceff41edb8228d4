import { isManagementKind, MANAGEMENT_CLASS } from '../../../shared/api/subAccounts.ts';
import type { Verdict, WriteFacts } from '../../../shared/api/policy.ts';

// The verdict a sub-account management write is reviewed and signed with. Its quorum is its class's, not
// the policy's (governance/management.ts): the policy's rules weigh money and decide neither.

export const MANAGEMENT_RULE = 'sub-account-management';

/** The verdict a management write is reviewed and signed with: not the policy's, its class's quorum. */
export function managementVerdict(kind: string, changeQuorum: number): Verdict {
  const access = isManagementKind(kind) && MANAGEMENT_CLASS[kind] === 'access';
  const approvals = access ? changeQuorum : 1;
  const why = access
    ? `giving access back or making new access needs the change quorum (${changeQuorum}), like an operator change`
    : 'containment: any operator who may freeze the desk confirms it alone, like a freeze';
  return {
    decision: 'require',
    rule: MANAGEMENT_RULE,
    approvals,
    drafter_may_approve: true,
    rules: [{ rule: MANAGEMENT_RULE, matched: true, why: [why] }],
  };
}

/** Management rows move no money: their facts weigh nothing (their quorum comes from managementNeed). */
export const NO_MONEY: WriteFacts = { currency: 'NONE', amount: '0', destination: null, usdt_price: null };

/** A management row under any policy: it leaves the decision to the money rows beside it. */
export const NEUTRAL: Verdict = { decision: 'allow', rule: MANAGEMENT_RULE, approvals: 0, drafter_may_approve: true, rules: [] };
