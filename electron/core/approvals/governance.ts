import { z } from 'zod';
import { DEFAULT_POLICY, DEFAULT_REQUEST_EXPIRY_HOURS, Policy, type Verdict, type WriteFacts } from '../../../shared/api/policy.ts';
import { dec, Dec } from '../../../shared/money.ts';
import { signedText, verifySignature } from '../operators/keys.ts';
import type { GovernanceBody, GovernanceRecord, OperatorSignature } from '../journal/records.ts';
import { changeQuorum, OUTFLOW_KINDS } from '../policy/engine.ts';
import { judgeRows, type JudgedRow } from '../policy/recheck.ts';
import { BatchPayload } from '../../../shared/api/batch.ts';
import { aRole, DEFAULT_ROLE, may, Role, type Act } from '../../../shared/api/roles.ts';
import { strictest } from './batchVerdict.ts';
import { containOnly, managementAct, managementNeed } from './management.ts';

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
  /** The role they were added with, then each approved change with when it takes effect, oldest first. */
  roles: { from: number; role: Role }[];
}

/** An operator's role at `at`: the last change in effect by then. */
export function roleAt(op: Operator, at: number): Role {
  let best = op.roles[0]!;
  // By when each takes effect, not by when it was approved (a recovery may come into force before a change approved earlier).
  for (const r of op.roles) if (r.from <= at && r.from >= best.from) best = r;
  return best.role;
}

/** The role an operator will have once every approved change has taken effect. */
export function roleAhead(op: Operator): Role {
  return roleAt(op, Number.POSITIVE_INFINITY);
}

export type ProposalWhat = 'request' | 'batch' | 'add_operator' | 'remove_operator' | 'set_role' | 'remove_address' | 'policy' | 'unfreeze';

export interface RequestPayload {
  kind: string;
  body: Record<string, string | number>;
  /** The sub-account whose key signs; part of what the operators sign, so nobody swaps the key afterwards. */
  signer?: string;
  note?: string;
  /** The verdict the drafter reviewed: the least the request needs, whatever the policy says later. */
  verdict: Verdict;
  /** What the desk knew when it judged the write, so that every signature judges it again under the policy then in force. */
  facts?: WriteFacts;
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
  /** The positions of its proposal and of the record that reached its quorum: which requests came before it, ties of the clock aside. */
  drafted_seq: number;
  approved_seq: number | null;
  /** When a change takes effect (approved_at + cooling-off); requests and unfreezes: at approval. */
  effective_at: number | null;
  dispatched: boolean;
}

export interface GovernanceState {
  operators: Map<string, Operator>;
  proposals: Map<string, Proposal>;
  frozen: { by: string; at: number; reason: string } | null;
  /** A recovery of a wedged desk: from `effective_at` the default policy is in force until a later policy takes effect. */
  recovery: { ref: string; at: number; effective_at: number; reason: string } | null;
  /** Every row id of every batch proposed, to its batch: with the proposals' refs, the ids no new request or row may take. */
  batchRows: Map<string, string>;
  /** The last record's position: an append must follow it (optimistic concurrency, see store.ts). */
  seq: number;
}

/** How long an approved operator or policy change waits, unless the desk says otherwise (the Sandbox's only). */
export const DEFAULT_COOLING_OFF_MS = 24 * 3_600_000;

export interface GovernanceRules {
  /**
   * The cooling-off a change proposed now signs into its payload, and that of a change proposed before
   * changes carried one. A signed one is what counts from then on, so restarting with another never
   * shortens a pending change.
   */
  coolingOffMs: number;
  /** The shortest cooling-off a proposal may sign (a vault's desk: the default; the Sandbox's: any). */
  minCoolingOffMs?: number;
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
  return { operators: new Map(), proposals: new Map(), frozen: null, recovery: null, batchRows: new Map(), seq: 0 };
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

/** A change's payload without the cooling-off signed into it, and that cooling-off (null when none was). */
export function changeBody(payload: string): { body: Record<string, unknown>; coolingOffMs: number | null } {
  const { cooling_off_ms, ...body } = JSON.parse(payload) as Record<string, unknown>;
  return { body, coolingOffMs: typeof cooling_off_ms === 'number' ? cooling_off_ms : null };
}

/** The payload of a change that signs its cooling-off. */
export function withCoolingOff(body: object, coolingOffMs: number): string {
  return JSON.stringify({ ...body, cooling_off_ms: coolingOffMs });
}

/** How long an approved change waits: what it signed when proposed, else (older records) what the desk says. */
function coolingOf(p: Proposal, rules: GovernanceRules): number {
  return changeBody(p.payload).coolingOffMs ?? rules.coolingOffMs;
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

/** What signing on a proposal of `what` does: a request's draft or approval, or a governance change. */
function actOn(what: ProposalWhat, drafting: boolean, p?: Proposal): Act {
  const need = p ? managementNeed(p) : null;
  if (need !== null) return managementAct(need, drafting);
  return what === 'request' || what === 'batch' ? (drafting ? 'draft' : 'approve') : 'change';
}

function check(s: GovernanceState, signed: OperatorSignature, at: number, text: string, act: Act): void {
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
  const role = roleAt(op, at);
  if (!may(role, act)) throw new GovernanceError(`${op.name} is ${aRole(role)}: ${aRole(role)} may not ${ACT_WORDS[act]}.`);
}

const ACT_WORDS: Record<Act, string> = {
  draft: 'draft requests',
  approve: 'approve or reject requests',
  change: 'propose, approve or reject operator, role or policy changes, or unfreezes',
  freeze: 'freeze the desk',
};

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
  if (p.what === 'set_role') {
    const { id, role } = roleChange(p.payload);
    s.operators.get(id)?.roles.push({ from: p.effective_at!, role });
  }
}

/** A role change's payload: whose, and to what. */
export function roleChange(payload: string): { id: string; role: Role } {
  const { id, role } = changeBody(payload).body;
  return { id: String(id), role: Role.parse(role) };
}

/** The role an operator is added with: what the signed addition names, else (older additions) today's behaviour. */
function addedRole(payload: string): Role {
  const { role } = changeBody(payload).body;
  return role === undefined ? DEFAULT_ROLE : Role.parse(role);
}

/** An address-book removal's payload: the entry as its signature covers it. */
const RemovedEntry = z.strictObject({
  currency: z.string().min(1).max(32),
  chain: z.string().min(1).max(64),
  address: z.string().min(1).max(256),
  memo: z.string().max(256).optional(),
  added_at: z.number(),
});

/**
 * The address-book entries a quorum removed, each as `entryKey` names it. A removal takes trust away, so
 * it takes effect once approved, with no cooling-off; the same destination added again later is a new
 * entry (another time added) and counts again after its own cooling-off.
 */
export function removedEntries(s: GovernanceState): Set<string> {
  const out = new Set<string>();
  for (const p of s.proposals.values())
    if (p.what === 'remove_address' && p.approved_at !== null && !p.rejected) out.add(entryKey(JSON.parse(p.payload)));
  return out;
}

/** One address-book entry's identity: its destination and the time it was added (what its signature covers). */
export function entryKey(e: { currency: string; chain: string; address: string; memo?: string; added_at: number }): string {
  return [e.currency, e.chain, e.address, e.memo ?? '', String(e.added_at)].join('\u0000');
}

function reachQuorum(s: GovernanceState, p: Proposal, rules: GovernanceRules, at: number): void {
  if (p.approved_at !== null || p.rejected) return;
  const q = quorumOf(s, p, rules, at);
  if (countedApprovers(p, q.drafterCounts).length < q.needed) return;
  p.approved_at = at;
  p.approved_seq = s.seq;
  const cooling = p.what === 'add_operator' || p.what === 'remove_operator' || p.what === 'set_role' || p.what === 'policy';
  p.effective_at = at + (cooling ? coolingOf(p, rules) : 0);
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
      s.operators.set(r.ref, {
        id: r.ref,
        name: r.name,
        public_key: r.public_key,
        active_from: at,
        removed_from: null,
        roles: [{ from: at, role: DEFAULT_ROLE }],
      });
      break;
    }
    case 'proposal': {
      if (s.proposals.has(r.ref)) throw new GovernanceError(`proposal ${r.ref} exists already.`);
      // Operators and policy may still change while frozen (a quorum to unfreeze may need a new operator).
      if (s.frozen && (r.what === 'request' || r.what === 'batch') && !containOnly({ what: r.what, payload: r.payload }))
        throw new GovernanceError('the desk is frozen: nothing is drafted until a quorum unfreezes it.');
      check(
        s,
        r.signed,
        at,
        textFor('propose', r.ref, r.what, r.payload, r.profile ?? ''),
        actOn(r.what, true, { what: r.what, payload: r.payload } as Proposal),
      );
      if (r.what === 'add_operator') {
        const o = JSON.parse(r.payload) as { id: string; name: string; public_key: string };
        if (s.operators.has(o.id)) throw new GovernanceError(`operator ${o.id} exists already.`);
        const role = addedRole(r.payload);
        // Known, but not in force: they can sign nothing until the change takes effect.
        s.operators.set(o.id, {
          id: o.id,
          name: o.name,
          public_key: o.public_key,
          active_from: Number.POSITIVE_INFINITY,
          removed_from: null,
          roles: [{ from: Number.NEGATIVE_INFINITY, role }],
        });
      }
      if (r.what === 'set_role') {
        const { id } = roleChange(r.payload);
        const op = s.operators.get(id);
        if (!op || op.removed_from !== null) throw new GovernanceError(`there is no operator ${id} in force to give a role.`);
      }
      if (r.what === 'policy') Policy.parse(changeBody(r.payload).body);
      if (r.what === 'remove_address' && !RemovedEntry.safeParse(JSON.parse(r.payload)).success)
        throw new GovernanceError('an address-book removal names a currency, a chain, an address and the time the entry was added.');
      if (r.what === 'add_operator' || r.what === 'remove_operator' || r.what === 'set_role' || r.what === 'policy') {
        const signed = changeBody(r.payload).coolingOffMs;
        const least = rules.minCoolingOffMs ?? 0;
        if (signed !== null && !(Number.isSafeInteger(signed) && signed >= least))
          throw new GovernanceError(
            `the change signs a cooling-off of ${signed / 3_600_000} h; this desk's changes wait at least ${least / 3_600_000} h.`,
          );
      }
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
        drafted_seq: s.seq,
        approved_seq: null,
        effective_at: null,
        dispatched: false,
      };
      if (r.what === 'request' || r.what === 'batch') {
        const q = quorumOf(s, p, rules, at);
        if (q.blocked) throw new GovernanceError(`${q.blocked}: this ${r.what} cannot be drafted.`);
      }
      s.proposals.set(r.ref, p);
      for (const ref of rows ?? []) s.batchRows.set(ref, r.ref);
      reachQuorum(s, p, rules, at);
      break;
    }
    case 'signoff': {
      const p = s.proposals.get(r.ref);
      if (!p) throw new GovernanceError(`there is no request or change ${r.ref}.`);
      if (p.rejected) throw new GovernanceError('it was rejected; nothing more can be approved on it.');
      if (isExpired(s, p, at))
        throw new GovernanceError(
          `it expired unapproved at ${new Date(expiresAt(s, p)!).toISOString()}: it will never be sent; draft it again if it is still wanted.`,
        );
      // An approved request not yet handed over takes more signatures when the policy now asks for more.
      const held = (p.what === 'request' || p.what === 'batch') && !p.dispatched && !stillApproved(s, p, rules, at);
      if (p.approved_at !== null && !held) throw new GovernanceError('it has all the approvals it needs already.');
      check(s, r.signed, at, textFor('approve', r.ref, p.what, p.payload, p.profile ?? ''), actOn(p.what, false, p));
      const q = quorumOf(s, p, rules, at);
      if (q.blocked) throw new GovernanceError(`${q.blocked}: it can only be rejected.`);
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
      // A drafter may withdraw their own draft whatever their role; anyone else rejects as an approver would.
      const own = r.signed.operator === p.drafted_by.operator;
      check(s, r.signed, at, textFor('reject', r.ref, p.what, p.payload, r.reason), actOn(p.what, own, p));
      p.rejected = { reason: r.reason, signed: r.signed, at };
      if (p.what === 'add_operator') {
        const o = JSON.parse(p.payload) as { id: string };
        if (p.effective_at === null) s.operators.delete(o.id);
      }
      break;
    }
    case 'freeze': {
      check(s, r.signed, at, textFor('freeze', r.ref, 'freeze', '{}', r.reason), 'freeze');
      s.frozen = { by: r.signed.name, at, reason: r.reason };
      break;
    }
    case 'recovery': {
      if (s.operators.size === 0) throw new GovernanceError('a desk with no operator has nothing to recover: create the first operator.');
      const effective = at + r.cooling_off_ms;
      s.recovery = { ref: r.ref, at, effective_at: effective, reason: r.reason };
      s.frozen = {
        by: `a recovery with the ${r.credential === 'vault' ? "vault's credential" : "Sandbox desk's leave"}`,
        at,
        reason: r.reason,
      };
      for (const op of activeOperators(s, at)) op.roles.push({ from: effective, role: 'admin' });
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
