import { BatchPayload } from '../../../shared/api/batch.ts';
import type { WriteKind } from '../../../shared/api/writes.ts';
import { verifySignature } from '../operators/keys.ts';
import { governs } from '../policy/engine.ts';
import { activeAt, textFor, type GovernanceRules, type GovernanceState, type Proposal, type RequestPayload } from '../governance/state.ts';
import { countedApprovers, policyInForce, quorumOf } from '../governance/quorum.ts';

// The executor's last question before a request leaves: which governance record approved exactly this
// write, and do its signatures still carry it? A journal line is authenticated by a MAC whose key may be
// readable (the Sandbox profile's file key), so the journal alone never sends a governed write: the
// operators' Ed25519 signatures over the same id, kind, body and signing key are checked here, each by an
// operator in force when they signed, and counted against the quorum of the policy in force now.

/** What the gate is shown of a write about to be sent (an IntentView has these). */
export interface GatedWrite {
  id: string;
  kind: WriteKind;
  body: Readonly<Record<string, string | number | boolean>>;
  signer?: string;
}

/** JSON with keys sorted at every level: the same body, whatever order a record kept its keys in. */
function canonical(v: unknown): string {
  if (Array.isArray(v)) return `[${v.map(canonical).join(',')}]`;
  if (v && typeof v === 'object')
    return `{${Object.keys(v)
      .sort()
      .map((k) => `${JSON.stringify(k)}:${canonical((v as Record<string, unknown>)[k])}`)
      .join(',')}}`;
  return JSON.stringify(v);
}

/** A batch's rows by ref, parsed once per folded state (the state is folded anew at every append). */
const batchRowsOf = new WeakMap<Proposal, Map<string, BatchPayload['rows'][number]>>();

function rowOf(batch: Proposal, id: string): BatchPayload['rows'][number] | undefined {
  let rows = batchRowsOf.get(batch);
  if (!rows) batchRowsOf.set(batch, (rows = new Map(BatchPayload.parse(JSON.parse(batch.payload)).rows.map((r) => [r.ref, r]))));
  return rows.get(id);
}

/** The proposal that carries `id` (a request's own ref, or a row of a batch) and the row it signed for it. */
function approvalOf(s: GovernanceState, id: string): { p: Proposal; row: Omit<GatedWrite, 'id'> } | null {
  const own = s.proposals.get(id);
  if (own?.what === 'request') {
    const r = JSON.parse(own.payload) as RequestPayload;
    return { p: own, row: { kind: r.kind as WriteKind, body: r.body, ...(r.signer ? { signer: r.signer } : {}) } };
  }
  const batchRef = s.batchRows.get(id);
  const batch = batchRef === undefined ? undefined : s.proposals.get(batchRef);
  if (!batch) return null;
  const row = rowOf(batch, id);
  return row ? { p: batch, row: { kind: row.kind, body: row.body, ...(row.signer ? { signer: row.signer } : {}) } } : null;
}

/** Whether an operators' approval on record carries `id` (a request's ref or a batch row). */
export function isApproved(s: GovernanceState, id: string): boolean {
  return approvalOf(s, id) !== null;
}

/** The operators whose signatures on `p` verify, each by an operator in force when they signed. */
function verifiedSigners(s: GovernanceState, p: Proposal): Set<string> {
  const extra = p.profile ?? '';
  const signed = [
    { sig: p.drafted_by, at: p.drafted_at, text: textFor('propose', p.ref, p.what, p.payload, extra) },
    ...p.signoffs.map((x) => ({ sig: x.signed, at: x.at, text: textFor('approve', p.ref, p.what, p.payload, extra) })),
  ];
  const ok = new Set<string>();
  for (const { sig, at, text } of signed) {
    const op = s.operators.get(sig.operator);
    if (op && activeAt(op, at) && verifySignature(op.public_key, text, sig.signature)) ok.add(sig.operator);
  }
  return ok;
}

/**
 * Why `w` may not be sent from `profile` now, or null when it may. A write no record approved passes only
 * when the policy in force lets its kind go without signatures (a cancel, under the default policy).
 */
export function gateRefusal(s: GovernanceState, rules: GovernanceRules, profile: string, w: GatedWrite, now: number): string | null {
  const found = approvalOf(s, w.id);
  if (!found) {
    if (!governs(policyInForce(s, profile, now).policy, w.kind)) return null;
    return `no operators' approval of ${w.id} is on record, and the policy in force governs ${w.kind.replace(/_/g, ' ')}s`;
  }
  const { p, row } = found;
  if (p.profile !== profile) return `the approval of ${w.id} is for profile ${p.profile ?? '(none)'}, not ${profile}`;
  if (row.kind !== w.kind || canonical(row.body) !== canonical(w.body) || (row.signer ?? null) !== (w.signer ?? null))
    return `the write differs from what the operators approved as ${w.id} (its kind, body or signing key)`;
  if (p.rejected) return `the operators rejected ${p.ref}`;
  if (p.approved_at === null) return `${p.ref} has not reached its approvals`;
  const q = quorumOf(s, p, rules, now);
  if (q.blocked) return q.blocked;
  const verified = verifiedSigners(s, p);
  const counted = countedApprovers(p, q.drafterCounts).filter((id) => verified.has(id));
  if (counted.length < q.needed)
    return `the policy in force needs ${q.needed} approval${q.needed === 1 ? '' : 's'}${q.drafterCounts ? '' : ' by operators other than the drafter'}; ${p.ref} has ${counted.length} that verify`;
  return null;
}
