import { DEFAULT_POLICY, DEFAULT_REQUEST_EXPIRY_HOURS, Policy, type Decision, type Verdict } from '../../../shared/api/policy.ts';
import { dec, Dec } from '../../../shared/money.ts';
import { BatchPayload } from '../../../shared/api/batch.ts';
import { changeQuorum, OUTFLOW_KINDS } from '../policy/engine.ts';
import { judgeRows, type JudgedRow } from '../policy/recheck.ts';
import { strictest } from '../policy/batchVerdict.ts';
import { managementNeed } from './management.ts';
import { changeBody, type GovernanceRules, type GovernanceState, type Proposal, type RequestPayload } from './state.ts';

// The quorum and the policy read from a folded state: which policy is in force per profile, what a
// request or batch needs now (the stricter of its drafter's verdict and that policy), when it expires,
// and whose approvals count. Pure: every desk and every replay reads the same from the same records.

/** The policy in force for a profile at `at`: the last policy change that took effect, else the default. */
export function policyInForce(s: GovernanceState, profile: string, at: number): { policy: Policy; ref: string | null } {
  let best: Proposal | null = null;
  // A recovery in effect sets aside every policy that took effect before it.
  const after = s.recovery && s.recovery.effective_at <= at ? s.recovery.effective_at : Number.NEGATIVE_INFINITY;
  for (const p of s.proposals.values()) {
    if (p.what !== 'policy' || p.profile !== profile || p.effective_at === null || p.effective_at > at || p.effective_at <= after) continue;
    if (!best || p.effective_at >= best.effective_at!) best = p;
  }
  return best ? { policy: parsedPolicy(best), ref: best.ref } : { policy: DEFAULT_POLICY, ref: null };
}

// A proposal's payload never changes once recorded, and the quorum of every request is asked again at
// each signature, hand-over and page view: what is read from a payload is read once per folded proposal.
const policies = new WeakMap<Proposal, Policy>();
const outflows = new WeakMap<Proposal, { currency: string; amount: Dec }[]>();
const judged = new WeakMap<Proposal, JudgedRow[] | null>();
const drafterVerdicts = new WeakMap<Proposal, Verdict>();

function parsedPolicy(p: Proposal): Policy {
  let policy = policies.get(p);
  if (!policy) policies.set(p, (policy = Policy.parse(changeBody(p.payload).body)));
  return policy;
}

/** The money a request or batch takes out, by row: what velocity rules count. */
function outflowOf(q: Proposal): { currency: string; amount: Dec }[] {
  let rows = outflows.get(q);
  if (!rows) {
    const payload = JSON.parse(q.payload) as RequestPayload | BatchPayload;
    rows = (q.what === 'batch' ? (payload as BatchPayload).rows : [payload as RequestPayload])
      .filter((r) => OUTFLOW_KINDS.has(r.kind) && typeof r.body.amount === 'string')
      .map((r) => ({ currency: String(r.body.currency), amount: dec(String(r.body.amount)) }));
    outflows.set(q, rows);
  }
  return rows;
}

/** A request's or batch's rows with the facts they were judged by; null for one drafted before facts were signed. */
function judgedRows(p: Proposal): JudgedRow[] | null {
  if (!judged.has(p)) judged.set(p, readJudgedRows(p));
  return judged.get(p)!;
}

function readJudgedRows(p: Proposal): JudgedRow[] | null {
  const payload = JSON.parse(p.payload) as RequestPayload | BatchPayload;
  if (p.what === 'request') {
    const r = payload as RequestPayload;
    return r.facts ? [{ kind: r.kind, body: r.body, facts: r.facts }] : null;
  }
  const b = payload as BatchPayload;
  if (!b.facts || b.facts.length !== b.rows.length) return null;
  return b.rows.map((row, i) => ({ kind: row.kind, body: row.body, facts: b.facts![i]! }));
}

/**
 * The 24-hour outflow the records hold beside `p`, by currency: every other request and batch row of its
 * profile not rejected, drafted in the 24 hours before `at` (waiting, approved, sent alike) and, once `p`
 * is approved, recorded before its quorum was: racing requests count against each other, but one drafted
 * after `p` was approved does not hold `p` back.
 */
function outflowBeside(s: GovernanceState, p: Proposal, at: number): (currency: string) => Dec {
  const sums = new Map<string, Dec>();
  for (const q of s.proposals.values()) {
    if (q === p || (q.what !== 'request' && q.what !== 'batch') || q.profile !== p.profile || q.rejected) continue;
    if (q.drafted_at <= at - 86_400_000 || (p.approved_seq !== null && q.drafted_seq >= p.approved_seq)) continue;
    for (const r of outflowOf(q)) sums.set(r.currency, (sums.get(r.currency) ?? new Dec(0)).plus(r.amount));
  }
  return (c) => sums.get(c) ?? new Dec(0);
}

/**
 * What a request or batch needs at `at`: the stricter of the verdict its drafter signed and the policy in
 * force at `at` applied to what was signed, its velocity counting the other requests the records hold.
 */
export function verdictAt(s: GovernanceState, p: Proposal, at: number): Verdict {
  let stored = drafterVerdicts.get(p);
  if (!stored) drafterVerdicts.set(p, (stored = (JSON.parse(p.payload) as RequestPayload | BatchPayload).verdict));
  const rows = judgedRows(p);
  if (!rows) return stored;
  const now = judgeRows(policyInForce(s, p.profile!, at).policy, rows, outflowBeside(s, p, at));
  return strictest([stored, now]);
}

/**
 * When a request or batch expires unapproved: its draft plus the expiry of the policy in force when it
 * was drafted (a later policy neither shortens nor lengthens a wait already begun). Null for changes.
 */
export function expiresAt(s: GovernanceState, p: Proposal): number | null {
  if (p.what !== 'request' && p.what !== 'batch') return null;
  const hours = policyInForce(s, p.profile!, p.drafted_at).policy.request_expiry_hours ?? DEFAULT_REQUEST_EXPIRY_HOURS;
  return p.drafted_at + hours * 3_600_000;
}

/** Expired: never approved, never rejected, and its time is up. It is never sent; nobody may approve it any more. */
export function isExpired(s: GovernanceState, p: Proposal, at: number): boolean {
  const end = expiresAt(s, p);
  return end !== null && p.approved_at === null && !p.rejected && at >= end;
}

/** Operator changes and unfreezes need the largest quorum any covered profile's policy sets. */
export function deskQuorum(s: GovernanceState, rules: GovernanceRules, at: number): number {
  return Math.max(1, ...rules.profiles().map((p) => changeQuorum(policyInForce(s, p, at).policy)));
}

export interface Quorum {
  needed: number;
  drafterCounts: boolean;
  /** Why no number of approvals is enough now (the policy in force blocks it), or null. */
  blocked: string | null;
}

/** How many distinct approvals a proposal needs at `at`, and whether its drafter counts among them. */
export function quorumOf(s: GovernanceState, p: Proposal, rules: GovernanceRules, at: number): Quorum {
  const need = managementNeed(p);
  if (need !== null) {
    // A management row asks its own quorum; money rows beside it (an incident's sweep) keep the policy's.
    const own = need === 'access' ? deskQuorum(s, rules, at) : 1;
    const v = verdictAt(s, p, at);
    if (v.decision === 'block')
      return {
        needed: Number.POSITIVE_INFINITY,
        drafterCounts: false,
        blocked: `the policy in force blocks it (rule ${v.rule ?? 'none'})`,
      };
    const money = v.decision === 'require' ? v.approvals : 0;
    return { needed: Math.max(own, money), drafterCounts: money > own ? v.drafter_may_approve : true, blocked: null };
  }
  if (p.what === 'request' || p.what === 'batch') {
    const v = verdictAt(s, p, at);
    if (v.decision === 'block')
      return {
        needed: Number.POSITIVE_INFINITY,
        drafterCounts: false,
        blocked: `the policy in force blocks it (${v.rule ? `rule ${v.rule}` : 'no rule matches'})`,
      };
    return { needed: v.decision === 'allow' ? 0 : v.approvals, drafterCounts: v.drafter_may_approve, blocked: null };
  }
  if (p.what === 'policy') return { needed: changeQuorum(policyInForce(s, p.profile!, at).policy), drafterCounts: true, blocked: null };
  return { needed: deskQuorum(s, rules, at), drafterCounts: true, blocked: null };
}

/** Whether an approved request or batch still has what the policy in force at `at` asks (else it waits for more). */
export function stillApproved(s: GovernanceState, p: Proposal, rules: GovernanceRules, at: number): boolean {
  const q = quorumOf(s, p, rules, at);
  return q.blocked === null && countedApprovers(p, q.drafterCounts).length >= q.needed;
}

/** Distinct operators whose approvals count: in force when they signed, the drafter only when the rule lets them. */
export function countedApprovers(p: Proposal, drafterCounts: boolean): string[] {
  const ids = new Set<string>();
  if (drafterCounts) ids.add(p.drafted_by.operator);
  for (const s of p.signoffs) if (drafterCounts || s.signed.operator !== p.drafted_by.operator) ids.add(s.signed.operator);
  return [...ids];
}

/** How many policy changes of a profile had taken effect by `at`: the version of its policy then (0: none yet). */
function policyVersion(s: GovernanceState, profile: string, at: number): number {
  let n = 0;
  for (const p of s.proposals.values())
    if (p.what === 'policy' && p.profile === profile && p.effective_at !== null && p.effective_at <= at) n++;
  return n;
}

/** The first rule asking the most approvals: the one that sets a policy's change quorum (null when none asks any). */
function changeRule(policy: Policy): string | null {
  const q = changeQuorum(policy);
  return policy.rules.find((r) => r.action === 'require' && (r.approvals ?? 1) === q)?.id ?? null;
}

/**
 * What judges a proposal at `at`, to be recorded when it is decided: a request or batch, the rule of its
 * verdict under its profile's policy then; a change (or a management request held to the change quorum),
 * the rule setting the change quorum, of the covered profile asking the most. `quorum` is null when the
 * policy then blocks it.
 */
export function decisionAt(s: GovernanceState, p: Proposal, rules: GovernanceRules, at: number): Decision {
  const q = quorumOf(s, p, rules, at);
  const quorum = Number.isFinite(q.needed) ? q.needed : null;
  if (p.what === 'request' || p.what === 'batch') {
    const v = verdictAt(s, p, at);
    const byChange = managementNeed(p) === 'access' && quorum !== null && quorum > (v.decision === 'require' ? v.approvals : 0);
    if (!byChange) return judgedBy(s, p.profile!, at, v.rule, quorum);
  }
  const profile = p.what === 'policy' ? p.profile! : deciding(s, rules, at);
  return judgedBy(s, profile, at, changeRule(policyInForce(s, profile, at).policy), quorum);
}

function judgedBy(s: GovernanceState, profile: string, at: number, rule: string | null, quorum: number | null): Decision {
  return { profile: profile || null, policy: policyInForce(s, profile, at).ref, version: policyVersion(s, profile, at), rule, quorum };
}

/** The covered profile whose policy sets the desk's change quorum at `at` (the first asking the most). */
function deciding(s: GovernanceState, rules: GovernanceRules, at: number): string {
  let best = rules.profiles()[0] ?? '';
  for (const profile of rules.profiles())
    if (changeQuorum(policyInForce(s, profile, at).policy) > changeQuorum(policyInForce(s, best, at).policy)) best = profile;
  return best;
}
