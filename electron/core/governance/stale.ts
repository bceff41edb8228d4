import { aRole } from '../../../shared/api/roles.ts';
import { expiresAt, isExpired } from './quorum.ts';
import { changeBody, entryKey, removedEntries, roleAhead, roleChange, type GovernanceState, type Proposal } from './state.ts';

// A signature asked for a change that already holds (the role is held, the freeze lifted, the entry
// removed, the same change waiting already) or on a request that is closed: why it would change nothing,
// or null. Read by the confirmation window to withdraw such a ticket, by the signing step before a
// passphrase opens a key, and by the ledger before a record is stored, so that no door signs one.

export interface Signable {
  action: 'draft' | 'approve' | 'reject' | 'propose' | 'freeze';
  what: string;
  ref: string;
  payload: string;
}

/** Changes that are the same change when their bodies are (the cooling-off aside). */
const SAME_WHEN_BODY_IS: ReadonlySet<string> = new Set(['set_role', 'remove_operator', 'remove_address', 'unfreeze']);

export function staleWhy(s: GovernanceState, t: Signable, at: number): string | null {
  if (t.action === 'freeze') return s.frozen ? `the desk is frozen already (by ${s.frozen.by})` : null;
  if (t.action === 'approve' || t.action === 'reject') return closed(s, s.proposals.get(t.ref), t.action, at);
  if (t.action !== 'propose') return null;
  return heldAlready(s, t) ?? waitingAlready(s, t, at);
}

function closed(s: GovernanceState, p: Proposal | undefined, action: 'approve' | 'reject', at: number): string | null {
  if (!p) return null;
  if (p.rejected) return `it was rejected by ${p.rejected.signed.name}`;
  if (isExpired(s, p, at))
    return `it expired unapproved at ${new Date(expiresAt(s, p)!).toISOString()}: it will never be sent; draft it again if it is still wanted`;
  const sendable = p.what === 'request' || p.what === 'batch';
  if (p.approved_at === null) return null;
  if (action === 'reject') return sendable ? 'it was approved and is being sent' : null;
  // An approved request not yet sent may be held for more signatures by a stricter policy: not closed.
  return !sendable || p.dispatched ? 'it has all the approvals it needs already' : null;
}

function heldAlready(s: GovernanceState, t: Signable): string | null {
  switch (t.what) {
    case 'unfreeze':
      return s.frozen ? null : 'the desk is not frozen (the freeze was lifted)';
    case 'set_role': {
      const { id, role } = roleChange(t.payload);
      const op = s.operators.get(id);
      if (!op || op.removed_from !== null) return `${op?.name ?? id} is no longer an operator`;
      return roleAhead(op) === role ? `${op.name} is ${aRole(role)} already` : null;
    }
    case 'remove_operator': {
      const id = String(changeBody(t.payload).body.id);
      const op = s.operators.get(id);
      return !op || op.removed_from !== null ? `${op?.name ?? id} is removed already` : null;
    }
    case 'remove_address':
      return removedEntries(s).has(entryKey(JSON.parse(t.payload))) ? 'that entry is removed from the address book already' : null;
    default:
      return null;
  }
}

function waitingAlready(s: GovernanceState, t: Signable, at: number): string | null {
  if (!SAME_WHEN_BODY_IS.has(t.what)) return null;
  const body = JSON.stringify(changeBody(t.payload).body);
  for (const p of s.proposals.values()) {
    if (p.ref === t.ref || p.what !== t.what || p.rejected || p.approved_at !== null || isExpired(s, p, at)) continue;
    if (JSON.stringify(changeBody(p.payload).body) === body)
      return `the same change waits for approval already (proposed by ${p.drafted_by.name})`;
  }
  return null;
}
