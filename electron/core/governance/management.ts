import { BatchPayload } from '../../../shared/api/batch.ts';
import { isManagementKind, MANAGEMENT_CLASS } from '../../../shared/api/subAccounts.ts';
import type { Act } from '../../../shared/api/roles.ts';

/** What of a governance proposal decides its management class (state.ts Proposal has these). */
interface Proposed {
  what: string;
  payload: string;
}

// Sub-account management under governance. Containing a sub-account (a lock, a key's removal) is like
// freezing the desk: any operator who may freeze signs it, and that one signature is its quorum. Giving
// access (an unlock, a new key, a new sub-account) is like an operator change: an admin drafts it and it
// needs the change quorum. The policy's rules weigh money and do not decide either (the verdict such a
// write is reviewed with: policy/managementVerdict.ts).

export type ManagementNeed = 'contain' | 'access';

const needs = new WeakMap<Proposed, ManagementNeed | null>();

/** The strictest management class among a request's or batch's rows, or null when it has none. */
export function managementNeed(p: Proposed): ManagementNeed | null {
  if (p.what !== 'request' && p.what !== 'batch') return null;
  if (!needs.has(p)) {
    const kinds =
      p.what === 'request'
        ? [(JSON.parse(p.payload) as { kind: string }).kind]
        : BatchPayload.parse(JSON.parse(p.payload)).rows.map((r) => r.kind);
    const classes = kinds.filter(isManagementKind).map((k) => MANAGEMENT_CLASS[k]);
    needs.set(p, classes.includes('access') ? 'access' : classes.length ? 'contain' : null);
  }
  return needs.get(p)!;
}

/** What signing such a proposal is, by the signer's role: drafting containment is a freeze, access a change. */
export function managementAct(need: ManagementNeed, drafting: boolean): Act {
  if (need === 'access') return 'change';
  return drafting ? 'freeze' : 'approve';
}

/**
 * Only containment (locks and key removals): like a freeze, it goes while the desk is frozen, since
 * freezing the desk's own writes is where an incident starts and locking the sub-account where it ends.
 */
export function containOnly(p: Proposed): boolean {
  if (p.what !== 'request' && p.what !== 'batch') return false;
  const kinds =
    p.what === 'request'
      ? [(JSON.parse(p.payload) as { kind: string }).kind]
      : BatchPayload.parse(JSON.parse(p.payload)).rows.map((r) => r.kind);
  return kinds.every((k) => isManagementKind(k) && MANAGEMENT_CLASS[k] === 'contain');
}

/** A write that may leave while the desk is frozen: containment of a sub-account. */
export function containKind(kind: string): boolean {
  return isManagementKind(kind) && MANAGEMENT_CLASS[kind] === 'contain';
}
