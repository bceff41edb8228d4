import { Policy } from '../../../shared/api/policy.ts';
import type { GovernanceBody } from '../journal/records.ts';
import { changeQuorum } from '../policy/engine.ts';
import { activeOperators, changeBody, policyInForce, type GovernanceRules, type GovernanceState, type Operator } from './governance.ts';

// A desk is wedged when something it must be able to do needs more distinct operators than can sign:
// a rule that needs two approvals with one operator, or a change quorum above the operators left. Then
// nothing governed can be sent again, and even the change that would repair it cannot reach its quorum.
// Every new policy, operator removal and signature on either is checked here before it is stored
// (service.ts append), so no door of the window can wedge the desk. Stored records are not re-checked
// when folded: an older desk's data that is wedged already folds, and docs/recovery says what then.

/** One thing the policy asks for, with the distinct operators it takes. */
export interface Need {
  /** The rule's id, or the quorum's name ("the change quorum"). */
  what: string;
  /** Distinct operators it takes: its approvals, plus the drafter when the drafter's own does not count. */
  operators: number;
  why: string;
}

/** What a policy needs, strictest first: each "require" rule, and the change quorum (which the unfreeze needs too). */
export function needsOf(policy: Policy): Need[] {
  const needs: Need[] = policy.rules.flatMap((r) => {
    if (r.action !== 'require') return [];
    const n = r.approvals ?? 1;
    return r.drafter_may_approve
      ? [{ what: `rule ${r.id}`, operators: n, why: `${n} approval${n === 1 ? '' : 's'}` }]
      : [{ what: `rule ${r.id}`, operators: n + 1, why: `${n} approval${n === 1 ? '' : 's'} not by the drafter, plus the drafter` }];
  });
  const q = changeQuorum(policy);
  needs.push({ what: 'the change quorum (operators, policy, unfreeze)', operators: q, why: `${q} approval${q === 1 ? '' : 's'}` });
  return needs.sort((a, b) => b.operators - a.operators);
}

/** Operators who can sign once the approved changes waiting for their cooling-off take effect: in force now, less approved removals. */
export function signersAhead(s: GovernanceState, at: number, without?: string): Operator[] {
  const leaving = new Set<string>();
  for (const p of s.proposals.values())
    if (p.what === 'remove_operator' && p.approved_at !== null && !p.rejected) leaving.add((JSON.parse(p.payload) as { id: string }).id);
  if (without) leaving.add(without);
  return activeOperators(s, at).filter((o) => !leaving.has(o.id));
}

/** Every policy a profile will have from now on: the one in force and those approved to take effect later. */
function policiesAhead(s: GovernanceState, profile: string, at: number): Policy[] {
  const out = [policyInForce(s, profile, at).policy];
  for (const p of s.proposals.values())
    if (p.what === 'policy' && p.profile === profile && p.effective_at !== null && p.effective_at > at && !p.rejected)
      out.push(Policy.parse(changeBody(p.payload).body));
  return out;
}

function problem(need: Need, signers: Operator[], doing: string): string {
  const names = signers.map((o) => o.name).join(', ') || 'none';
  return (
    `${doing} would wedge the desk: ${need.what} needs ${need.operators} distinct operators (${need.why}), ` +
    `but only ${signers.length} could sign (${names}). Nothing it governs could ever be sent, and no change could repair it. ` +
    'Add operators first, or ask for fewer approvals.'
  );
}

/** Why a proposal of `what` with `payload` would wedge the desk at `at`, or null. */
export function wedgeOf(
  s: GovernanceState,
  rules: GovernanceRules,
  what: string,
  payload: string,
  profile: string | undefined,
  at: number,
): string | null {
  if (what === 'policy') {
    const signers = signersAhead(s, at);
    const need = needsOf(Policy.parse(changeBody(payload).body))[0]!;
    return need.operators > signers.length ? problem(need, signers, 'This policy') : null;
  }
  if (what === 'remove_operator') {
    const id = String(changeBody(payload).body.id);
    const signers = signersAhead(s, at, id);
    const name = s.operators.get(id)?.name ?? id;
    for (const p of new Set([...rules.profiles(), ...(profile ? [profile] : [])]))
      for (const policy of policiesAhead(s, p, at)) {
        const need = needsOf(policy)[0]!;
        if (need.operators > signers.length) return problem(need, signers, `Removing ${name}`);
      }
    if (signers.length === 0) return `Removing ${name} would leave no operator: nothing could ever be signed again.`;
  }
  return null;
}

/** Why storing this record would wedge the desk, or null: a new policy or removal, or a signature that would put one in force. */
export function wedgeOfRecord(s: GovernanceState, rules: GovernanceRules, r: GovernanceBody, at: number): string | null {
  if (r.type === 'proposal') return wedgeOf(s, rules, r.what, r.payload, r.profile, at);
  if (r.type === 'signoff') {
    // The operators may have changed since it was proposed: it is checked again as it gathers approvals.
    const p = s.proposals.get(r.ref);
    if (p && (p.what === 'policy' || p.what === 'remove_operator') && p.approved_at === null)
      return wedgeOf(s, rules, p.what, p.payload, p.profile, at);
  }
  return null;
}

/** For the policy in force: how many operators could be lost before the desk wedges, and what decides it. */
export function wedgeMargin(s: GovernanceState, profile: string, at: number): { need: Need; signers: number; margin: number } {
  const need = needsOf(policyInForce(s, profile, at).policy)[0]!;
  const signers = signersAhead(s, at).length;
  return { need, signers, margin: signers - need.operators };
}
