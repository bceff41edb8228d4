import { Policy } from '../../../shared/api/policy.ts';
import { aRole, may, Role, type Act } from '../../../shared/api/roles.ts';
import type { GovernanceBody } from '../journal/records.ts';
import { changeQuorum } from '../policy/engine.ts';
import { activeOperators, changeBody, roleAhead, roleChange, type GovernanceRules, type GovernanceState } from '../governance/state.ts';
import { policyInForce } from '../governance/quorum.ts';

// A desk is wedged when something it must be able to do needs more distinct operators than can sign:
// a rule that needs two approvals with one approver, or a change quorum above the admins left. Then
// nothing governed can be sent again, and even the change that would repair it cannot reach its quorum.
// Every new policy, operator removal, role change and signature on one is checked here before it is
// stored (service.ts append), so no door of the window can wedge the desk. Stored records are not
// re-checked when folded: an older desk's data that is wedged already still opens (README: recovery).

/** One thing the policy asks for, with the distinct operators it takes. */
export interface Need {
  /** The rule's id, or the quorum's name. */
  what: string;
  /** Approvals it takes, from operators whose role may give them. */
  approvals: number;
  act: Exclude<Act, 'draft' | 'freeze'>;
  /** The drafter's own approval does not count: one more operator, able to draft, besides the approvers. */
  drafterApart: boolean;
  why: string;
}

/** A signer as the wedge sees them: a name and the role they will have once approved changes take effect. */
export interface Signer {
  id: string;
  name: string;
  role: Role;
}

/** What a policy needs: each "require" rule, and the change quorum (which unfreezes and operator changes need too). */
export function needsOf(policy: Policy): Need[] {
  const needs: Need[] = policy.rules.flatMap((r) => {
    if (r.action !== 'require') return [];
    const n = r.approvals ?? 1;
    const approvals = `${n} approval${n === 1 ? '' : 's'}`;
    return [
      r.drafter_may_approve
        ? { what: `rule ${r.id}`, approvals: n, act: 'approve' as const, drafterApart: false, why: approvals }
        : {
            what: `rule ${r.id}`,
            approvals: n,
            act: 'approve' as const,
            drafterApart: true,
            why: `${approvals} not by the drafter, plus the drafter`,
          },
    ];
  });
  const q = changeQuorum(policy);
  needs.push({
    what: 'the change quorum (operators, roles, policy, unfreeze)',
    approvals: q,
    act: 'change',
    drafterApart: false,
    why: `${q} admin approval${q === 1 ? '' : 's'}`,
  });
  return needs;
}

/** How many signers could be lost before `need` cannot be met (negative: it cannot be met now). */
function marginOf(need: Need, signers: readonly Signer[]): number {
  const able = signers.filter((o) => may(o.role, need.act)).length - need.approvals;
  if (!need.drafterApart) return able;
  return Math.min(able, signers.filter((o) => may(o.role, 'draft')).length - (need.approvals + 1));
}

/** The distinct operators a need takes, in words for the refusal. */
function takes(need: Need): string {
  const one = need.approvals === 1;
  const who = need.act === 'change' ? (one ? 'admin' : 'admins') : one ? 'approver or admin' : 'approvers or admins';
  return need.drafterApart ? `${need.approvals} ${who} and one more operator to draft` : `${need.approvals} ${who}`;
}

/**
 * Operators who can sign once the approved changes waiting for their cooling-off take effect: in force
 * now, less approved removals, each in the role approved changes give them; `change` applies one more.
 */
export function signersAhead(s: GovernanceState, at: number, change?: { remove?: string; role?: { id: string; role: Role } }): Signer[] {
  const leaving = new Set<string>();
  for (const p of s.proposals.values())
    if (p.what === 'remove_operator' && p.approved_at !== null && !p.rejected) leaving.add(String(changeBody(p.payload).body.id));
  if (change?.remove) leaving.add(change.remove);
  return activeOperators(s, at)
    .filter((o) => !leaving.has(o.id))
    .map((o) => ({ id: o.id, name: o.name, role: change?.role?.id === o.id ? change.role.role : roleAhead(o) }));
}

/** Every policy a profile will have from now on: the one in force and those approved to take effect later. */
function policiesAhead(s: GovernanceState, profile: string, at: number): Policy[] {
  const out = [policyInForce(s, profile, at).policy];
  for (const p of s.proposals.values())
    if (p.what === 'policy' && p.profile === profile && p.effective_at !== null && p.effective_at > at && !p.rejected)
      out.push(Policy.parse(changeBody(p.payload).body));
  return out;
}

/** The first need of `policies` that `signers` cannot meet, in words, or null. */
function unmet(policies: readonly Policy[], signers: readonly Signer[], doing: string): string | null {
  for (const policy of policies)
    for (const need of needsOf(policy)) {
      if (marginOf(need, signers) >= 0) continue;
      const names = signers.map((o) => `${o.name}, ${o.role}`).join('; ') || 'none';
      return (
        `${doing} would wedge the desk: ${need.what} needs ${takes(need)} (${need.why}), but the operators who could sign ` +
        `are ${names}. Nothing it governs could ever be done, and no change could repair it. Add operators first, or ask for fewer approvals.`
      );
    }
  return null;
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
  if (what === 'policy') return unmet([Policy.parse(changeBody(payload).body)], signersAhead(s, at), 'This policy');
  if (what !== 'remove_operator' && what !== 'set_role') return null;
  const profiles = [...new Set([...rules.profiles(), ...(profile ? [profile] : [])])];
  const policies = profiles.flatMap((p) => policiesAhead(s, p, at));
  if (what === 'remove_operator') {
    const id = String(changeBody(payload).body.id);
    const name = s.operators.get(id)?.name ?? id;
    const signers = signersAhead(s, at, { remove: id });
    if (signers.length === 0) return `Removing ${name} would leave no operator: nothing could ever be signed again.`;
    return unmet(policies.length ? policies : [], signers, `Removing ${name}`);
  }
  const change = roleChange(payload);
  const name = s.operators.get(change.id)?.name ?? change.id;
  return unmet(policies, signersAhead(s, at, { role: change }), `Making ${name} ${aRole(change.role)}`);
}

/** Why storing this record would wedge the desk, or null: a new change, or a signature that would put one in force. */
export function wedgeOfRecord(s: GovernanceState, rules: GovernanceRules, r: GovernanceBody, at: number): string | null {
  if (r.type === 'proposal') return wedgeOf(s, rules, r.what, r.payload, r.profile, at);
  if (r.type === 'signoff') {
    // The operators may have changed since it was proposed: it is checked again as it gathers approvals.
    const p = s.proposals.get(r.ref);
    if (p && (p.what === 'policy' || p.what === 'remove_operator' || p.what === 'set_role') && p.approved_at === null)
      return wedgeOf(s, rules, p.what, p.payload, p.profile, at);
  }
  return null;
}

/**
 * Why the desk is wedged now (a profile's policy in force needs more than its operators can give), or
 * null: what a recovery requires before it may begin.
 */
export function wedgedNow(s: GovernanceState, rules: GovernanceRules, at: number): string | null {
  const signers = signersAhead(s, at);
  for (const profile of rules.profiles()) {
    const why = unmet([policyInForce(s, profile, at).policy], signers, `The policy in force for ${profile}`);
    if (why) return why.replace(' would wedge the desk', ' wedges the desk');
  }
  return null;
}

/** For the policy in force: the need closest to wedging the desk, the operators able to meet it, and how many could be lost. */
export function wedgeMargin(
  s: GovernanceState,
  profile: string,
  at: number,
): { need: Need; signers: number; margin: number; able: string[] } {
  const signers = signersAhead(s, at);
  const ranked = needsOf(policyInForce(s, profile, at).policy)
    .map((need) => {
      // The operators whose loss counts: those able to give its approvals, or, where the drafter stands
      // apart and drafters are the scarcer, those able to draft.
      const approvers = signers.filter((o) => may(o.role, need.act));
      const drafters = signers.filter((o) => may(o.role, 'draft'));
      const byDrafters = need.drafterApart && drafters.length - (need.approvals + 1) < approvers.length - need.approvals;
      const able = byDrafters ? drafters : approvers;
      return { need, margin: marginOf(need, signers), signers: able.length, able: able.map((o) => o.name) };
    })
    .sort((a, b) => a.margin - b.margin);
  return ranked[0]!;
}

/** The distinct operators a need takes in all. */
export function operatorsFor(need: Need): number {
  return need.approvals + (need.drafterApart ? 1 : 0);
}
