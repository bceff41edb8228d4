import type { Decision, Verdict, WriteFacts } from '../../../shared/api/policy.ts';
import { Role } from '../../../shared/api/roles.ts';
import { signedText } from '../operators/keys.ts';
import type { OperatorSignature } from '../journal/records.ts';

// What the governance records fold into (fold.ts): who the operators are, which requests and changes wait
// for whom, whether the desk is frozen; and the small readings of it every layer shares. governance/ sits
// below approvals/, team/ (its store folds as it verifies) and the journal's audit (it replays the fold),
// and above policy/ (a quorum is read from the policy in force, quorum.ts), operators/ and the journal's
// record schema (journal/records.ts): it imports none of the layers above it (.dependency-cruiser.cjs).

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
  /**
   * The policy, rule and quorum that decided it, as the deciding record carries them; null while it is
   * undecided, or when that record is from before decisions were recorded.
   */
  decided: Decision | null;
  /** What this fold judged at the deciding record, and that record's position: what the desk records with it (approvals/ledger.ts). */
  judged: { decision: Decision; seq: number } | null;
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
/**
 * The Sandbox's play-money governance waits nothing unless the desk is started with
 * TREASURY_DESK_COOLING_OFF_HOURS: a rehearsal team adds its second operator at once (docs/team.md).
 */
export const SANDBOX_COOLING_OFF_MS = 0;

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

/** A change's payload without the cooling-off signed into it, and that cooling-off (null when none was). */
export function changeBody(payload: string): { body: Record<string, unknown>; coolingOffMs: number | null } {
  const { cooling_off_ms, ...body } = JSON.parse(payload) as Record<string, unknown>;
  return { body, coolingOffMs: typeof cooling_off_ms === 'number' ? cooling_off_ms : null };
}

/** The payload of a change that signs its cooling-off. */
export function withCoolingOff(body: object, coolingOffMs: number): string {
  return JSON.stringify({ ...body, cooling_off_ms: coolingOffMs });
}

/** A role change's payload: whose, and to what. */
export function roleChange(payload: string): { id: string; role: Role } {
  const { id, role } = changeBody(payload).body;
  return { id: String(id), role: Role.parse(role) };
}

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
