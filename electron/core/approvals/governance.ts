import { DEFAULT_POLICY, Policy, type Verdict } from '../../../shared/api/policy.ts';
import { signedText, verifySignature } from '../operators/keys.ts';
import type { GovernanceBody, GovernanceRecord, OperatorSignature } from '../journal/records.ts';
import { changeQuorum } from '../policy/engine.ts';
import { BatchPayload } from '../../../shared/api/batch.ts';

// The governance state as a pure fold of signed records: who the operators are, which requests and
// changes wait for whom, which policy is in force per profile, whether the desk is frozen. Every record
// is checked as it is folded (the signer was an operator in force at that moment, the signature is
// over exactly the text operators/keys.ts signedText() makes), so a record that does not check is
// refused before it is stored, and a stored one that does not check stops governance as damaged.

export interface Operator {
  id: string;
  name: string;
  public_key: string;
  /** When the operator may sign (the first operator: at once; later ones: after quorum and cooling-off). */
  active_from: number;
  removed_from: number | null;
}

export type ProposalWhat = 'request' | 'batch' | 'add_operator' | 'remove_operator' | 'policy' | 'unfreeze';

export interface RequestPayload {
  kind: string;
  body: Record<string, string | number>;
  /** The sub-account whose key signs; part of what the operators sign, so nobody swaps the key afterwards. */
  signer?: string;
  note?: string;
  /** The verdict the drafter reviewed; approvals needed are taken from it. */
  verdict: Verdict;
}

export interface Proposal {
  ref: string;
  what: ProposalWhat;
  profile?: string;
  payload: string;
  drafted_by: OperatorSignature;
  drafted_at: number;
  signoffs: { signed: OperatorSignature; at: number }[];
  rejected: { reason: string; signed: OperatorSignature; at: number } | null;
  /** When the quorum was reached; null while it is not. */
  approved_at: number | null;
  /** When a change takes effect (approved_at + cooling-off); requests and unfreezes: at approval. */
  effective_at: number | null;
  dispatched: boolean;
}

export interface GovernanceState {
  operators: Map<string, Operator>;
  proposals: Map<string, Proposal>;
  frozen: { by: string; at: number; reason: string } | null;
  /** Every row id of every batch proposed: with the proposals' refs, the ids no new request or row may take. */
  batchRows: Set<string>;
  /** The last record's position: an append must follow it (optimistic concurrency, see store.ts). */
  seq: number;
}

export interface GovernanceRules {
  /** How long an approved operator or policy change waits before it takes effect. */
  coolingOffMs: number;
  /** The profiles whose policies this governance covers: operator changes take the largest quorum among them. */
  profiles: () => string[];
}

export class GovernanceError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'GovernanceError';
  }
}

export function emptyState(): GovernanceState {
  return { operators: new Map(), proposals: new Map(), frozen: null, batchRows: new Set(), seq: 0 };
}

export function activeAt(op: Operator | undefined, at: number): boolean {
  return !!op && op.active_from <= at && (op.removed_from === null || at < op.removed_from);
}

export function activeOperators(s: GovernanceState, at: number): Operator[] {
  return [...s.operators.values()].filter((o) => activeAt(o, at));
}

/** The text an operator signs for a governance record. */
export function textFor(action: OperatorSignature['action'], ref: string, what: string, payload: string, extra = ''): string {
  return signedText(action as 'draft', ref, what, { payload }, extra);
}

/** The policy in force for a profile at `at`: the last policy change that took effect, else the default. */
export function policyInForce(s: GovernanceState, profile: string, at: number): { policy: Policy; ref: string | null } {
  let best: Proposal | null = null;
  for (const p of s.proposals.values()) {
    if (p.what !== 'policy' || p.profile !== profile || p.effective_at === null || p.effective_at > at) continue;
    if (!best || p.effective_at >= best.effective_at!) best = p;
  }
  return best ? { policy: Policy.parse(JSON.parse(best.payload)), ref: best.ref } : { policy: DEFAULT_POLICY, ref: null };
}

/** Operator changes and unfreezes need the largest quorum any covered profile's policy sets. */
export function deskQuorum(s: GovernanceState, rules: GovernanceRules, at: number): number {
  return Math.max(1, ...rules.profiles().map((p) => changeQuorum(policyInForce(s, p, at).policy)));
}

/** How many distinct approvals a proposal needs, and whether its drafter counts among them. */
export function quorumOf(s: GovernanceState, p: Proposal, rules: GovernanceRules, at: number): { needed: number; drafterCounts: boolean } {
  if (p.what === 'request' || p.what === 'batch') {
    const v = (JSON.parse(p.payload) as RequestPayload | BatchPayload).verdict;
    return { needed: v.decision === 'allow' ? 0 : v.approvals, drafterCounts: v.drafter_may_approve };
  }
  if (p.what === 'policy') return { needed: changeQuorum(policyInForce(s, p.profile!, at).policy), drafterCounts: true };
  return { needed: deskQuorum(s, rules, at), drafterCounts: true };
}

/** Distinct operators whose approvals count: in force when they signed, the drafter only when the rule lets them. */
export function countedApprovers(p: Proposal, drafterCounts: boolean): string[] {
  const ids = new Set<string>();
  if (drafterCounts) ids.add(p.drafted_by.operator);
  for (const s of p.signoffs) if (drafterCounts || s.signed.operator !== p.drafted_by.operator) ids.add(s.signed.operator);
  return [...ids];
}

function check(s: GovernanceState, signed: OperatorSignature, at: number, text: string): void {
  const op = s.operators.get(signed.operator);
  if (!op) throw new GovernanceError(`${signed.name} is not an operator of this desk.`);
  if (!activeAt(op, at)) {
    throw new GovernanceError(
      op.active_from > at
        ? `${op.name} is not an operator yet: the change that adds them takes effect ${new Date(op.active_from).toISOString()}.`
        : `${op.name} was removed as an operator.`,
    );
  }
  if (op.name !== signed.name) throw new GovernanceError(`the signature names ${signed.name}, but operator ${op.id} is ${op.name}.`);
  if (!verifySignature(op.public_key, text, signed.signature))
    throw new GovernanceError(`${op.name}'s signature does not verify: refused.`);
}

/** Applies a proposal's effect once it has taken effect (operators join or leave, a freeze ends). */
function takeEffect(s: GovernanceState, p: Proposal): void {
  if (p.what === 'add_operator') {
    const o = JSON.parse(p.payload) as { id: string; name: string; public_key: string };
    const existing = s.operators.get(o.id);
    if (existing) existing.active_from = p.effective_at!;
  }
  if (p.what === 'remove_operator') {
    const { id } = JSON.parse(p.payload) as { id: string };
    const op = s.operators.get(id);
    if (op) op.removed_from = p.effective_at!;
  }
}

function reachQuorum(s: GovernanceState, p: Proposal, rules: GovernanceRules, at: number): void {
  if (p.approved_at !== null || p.rejected) return;
  const q = quorumOf(s, p, rules, at);
  if (countedApprovers(p, q.drafterCounts).length < q.needed) return;
  p.approved_at = at;
  const cooling = p.what === 'add_operator' || p.what === 'remove_operator' || p.what === 'policy';
  p.effective_at = at + (cooling ? rules.coolingOffMs : 0);
  if (p.what === 'unfreeze') s.frozen = null;
  takeEffect(s, p);
}

/** Folds one record into the state, throwing GovernanceError when it does not check. Mutates `s`. */
export function applyGovernance(s: GovernanceState, r: GovernanceBody, at: number, rules: GovernanceRules): void {
  switch (r.type) {
    case 'operator_created': {
      if (s.operators.size > 0)
        throw new GovernanceError('this desk has operators already; another is added by a change that needs a quorum.');
      if (
        !verifySignature(
          r.public_key,
          textFor('create', r.ref, 'operator', JSON.stringify({ name: r.name, public_key: r.public_key })),
          r.signed.signature,
        )
      ) {
        throw new GovernanceError("the first operator's own signature does not verify.");
      }
      s.operators.set(r.ref, { id: r.ref, name: r.name, public_key: r.public_key, active_from: at, removed_from: null });
      break;
    }
    case 'proposal': {
      if (s.proposals.has(r.ref)) throw new GovernanceError(`proposal ${r.ref} exists already.`);
      // Operators and policy may still change while frozen (a quorum to unfreeze may need a new operator).
      if (s.frozen && (r.what === 'request' || r.what === 'batch'))
        throw new GovernanceError('the desk is frozen: nothing is drafted until a quorum unfreezes it.');
      check(s, r.signed, at, textFor('propose', r.ref, r.what, r.payload, r.profile ?? ''));
      if (r.what === 'add_operator') {
        const o = JSON.parse(r.payload) as { id: string; name: string; public_key: string };
        if (s.operators.has(o.id)) throw new GovernanceError(`operator ${o.id} exists already.`);
        // Known, but not in force: they can sign nothing until the change takes effect.
        s.operators.set(o.id, {
          id: o.id,
          name: o.name,
          public_key: o.public_key,
          active_from: Number.POSITIVE_INFINITY,
          removed_from: null,
        });
      }
      if (r.what === 'policy') Policy.parse(JSON.parse(r.payload));
      const rows = r.what === 'batch' ? checkBatch(s, r.payload) : null;
      if ((r.what === 'request' || r.what === 'batch') && s.batchRows.has(r.ref))
        throw new GovernanceError(`id ${r.ref} is a batch row's already.`);
      const p: Proposal = {
        ref: r.ref,
        what: r.what,
        ...(r.profile !== undefined ? { profile: r.profile } : {}),
        payload: r.payload,
        drafted_by: r.signed,
        drafted_at: at,
        signoffs: [],
        rejected: null,
        approved_at: null,
        effective_at: null,
        dispatched: false,
      };
      if ((r.what === 'request' || r.what === 'batch') && (JSON.parse(r.payload) as RequestPayload).verdict.decision === 'block') {
        throw new GovernanceError(`the policy blocks this ${r.what}: it cannot be drafted.`);
      }
      s.proposals.set(r.ref, p);
      for (const ref of rows ?? []) s.batchRows.add(ref);
      reachQuorum(s, p, rules, at);
      break;
    }
    case 'signoff': {
      const p = s.proposals.get(r.ref);
      if (!p) throw new GovernanceError(`there is no request or change ${r.ref}.`);
      if (p.rejected) throw new GovernanceError('it was rejected; nothing more can be approved on it.');
      if (p.approved_at !== null) throw new GovernanceError('it has all the approvals it needs already.');
      check(s, r.signed, at, textFor('approve', r.ref, p.what, p.payload, p.profile ?? ''));
      const q = quorumOf(s, p, rules, at);
      if (!q.drafterCounts && r.signed.operator === p.drafted_by.operator) {
        throw new GovernanceError(`${r.signed.name} drafted this request; the rule that decides it needs approvals from other operators.`);
      }
      if (
        p.signoffs.some((x) => x.signed.operator === r.signed.operator) ||
        (q.drafterCounts && r.signed.operator === p.drafted_by.operator)
      ) {
        throw new GovernanceError(`${r.signed.name} has approved this already; it needs a different operator.`);
      }
      p.signoffs.push({ signed: r.signed, at });
      reachQuorum(s, p, rules, at);
      break;
    }
    case 'rejection': {
      const p = s.proposals.get(r.ref);
      if (!p) throw new GovernanceError(`there is no request or change ${r.ref}.`);
      if (p.rejected || p.dispatched) throw new GovernanceError('it is closed already.');
      if (p.approved_at !== null && (p.what === 'request' || p.what === 'batch'))
        throw new GovernanceError('it was approved and is being sent; cancel it at the exchange instead.');
      check(s, r.signed, at, textFor('reject', r.ref, p.what, p.payload, r.reason));
      p.rejected = { reason: r.reason, signed: r.signed, at };
      if (p.what === 'add_operator') {
        const o = JSON.parse(p.payload) as { id: string };
        if (p.effective_at === null) s.operators.delete(o.id);
      }
      break;
    }
    case 'freeze': {
      check(s, r.signed, at, textFor('freeze', r.ref, 'freeze', '{}', r.reason));
      s.frozen = { by: r.signed.name, at, reason: r.reason };
      break;
    }
    case 'dispatched': {
      const p = s.proposals.get(r.ref);
      if (!p || (p.what !== 'request' && p.what !== 'batch') || p.approved_at === null)
        throw new GovernanceError(`request ${r.ref} is not approved.`);
      if (p.dispatched) throw new GovernanceError(`request ${r.ref} was handed to its journal already.`);
      p.dispatched = true;
      break;
    }
  }
  s.seq += 1;
}

/**
 * A batch's payload is well formed and none of its row ids was used by an earlier request or batch: a
 * row id is the intent id (and client id) its write is sent under, so a reused one could be sent twice.
 */
function checkBatch(s: GovernanceState, payload: string): Set<string> {
  const parsed = BatchPayload.safeParse(JSON.parse(payload));
  if (!parsed.success)
    throw new GovernanceError(`the batch is malformed: ${parsed.error.issues[0]!.path.join('.')}: ${parsed.error.issues[0]!.message}`);
  const refs = new Set<string>();
  for (const row of parsed.data.rows) {
    if (refs.has(row.ref) || s.proposals.has(row.ref) || s.batchRows.has(row.ref))
      throw new GovernanceError(`row id ${row.ref} is used twice.`);
    refs.add(row.ref);
  }
  return refs;
}

/** Folds stored records; a record that does not check means the store was written around the desk. */
export function foldGovernance(records: readonly GovernanceRecord[], rules: GovernanceRules): GovernanceState {
  const s = emptyState();
  for (const r of records) {
    try {
      applyGovernance(s, r, Date.parse(r.at), rules);
    } catch (e) {
      throw new GovernanceError(`governance record ${r.seq} (${r.type}) does not check: ${(e as Error).message}`);
    }
  }
  return s;
}
