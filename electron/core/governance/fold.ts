import { z } from 'zod';
import { Policy, type Decision } from '../../../shared/api/policy.ts';
import { BatchPayload } from '../../../shared/api/batch.ts';
import { aRole, DEFAULT_ROLE, may, Role, type Act } from '../../../shared/api/roles.ts';
import { verifySignature } from '../operators/keys.ts';
import type { GovernanceBody, GovernanceRecord, OperatorSignature } from '../journal/records.ts';
import { containOnly, managementAct, managementNeed } from './management.ts';
import { countedApprovers, decisionAt, expiresAt, isExpired, quorumOf, stillApproved } from './quorum.ts';
import {
  activeAt,
  activeOperators,
  changeBody,
  emptyState,
  GovernanceError,
  roleAt,
  roleChange,
  textFor,
  type GovernanceRules,
  type GovernanceState,
  type Proposal,
  type ProposalWhat,
} from './state.ts';

// The governance state as a pure fold of signed records: who the operators are, which requests and
// changes wait for whom, which policy is in force per profile, whether the desk is frozen. Every record
// is checked as it is folded (the signer was an operator in force at that moment, the signature is
// over exactly the text operators/keys.ts signedText() makes), so a record that does not check is
// refused before it is stored, and a stored one that does not check stops governance as damaged.

/** How long an approved change waits: what it signed when proposed, else (older records) what the desk says. */
function coolingOf(p: Proposal, rules: GovernanceRules): number {
  return changeBody(p.payload).coolingOffMs ?? rules.coolingOffMs;
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
 * Keeps what judged `p` at this record: as the record carries it, and as this fold judges it (before any
 * effect of the decision, so a policy is judged by the one it replaces).
 */
function decide(s: GovernanceState, p: Proposal, rules: GovernanceRules, at: number, recorded: Decision | undefined): void {
  p.judged = { decision: decisionAt(s, p, rules, at), seq: s.seq };
  p.decided = recorded ?? null;
}

function reachQuorum(s: GovernanceState, p: Proposal, rules: GovernanceRules, at: number, recorded: Decision | undefined): void {
  if (p.approved_at !== null || p.rejected) return;
  const q = quorumOf(s, p, rules, at);
  if (countedApprovers(p, q.drafterCounts).length < q.needed) return;
  decide(s, p, rules, at, recorded);
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
        decided: null,
        judged: null,
      };
      if (r.what === 'request' || r.what === 'batch') {
        const q = quorumOf(s, p, rules, at);
        if (q.blocked) throw new GovernanceError(`${q.blocked}: this ${r.what} cannot be drafted.`);
      }
      s.proposals.set(r.ref, p);
      for (const ref of rows ?? []) s.batchRows.set(ref, r.ref);
      reachQuorum(s, p, rules, at, r.decided);
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
      // A held request approved again is decided again, under the policy that held it.
      if (held && stillApproved(s, p, rules, at)) decide(s, p, rules, at, r.decided);
      reachQuorum(s, p, rules, at, r.decided);
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
      decide(s, p, rules, at, r.decided);
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
