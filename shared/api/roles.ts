import { z } from 'zod';

// What an operator may sign. Part of the operator's signed record (their addition, or a role change that
// needs the change quorum), and checked where every governance record is folded: a role hidden in the
// window is not the guarantee, the fold's refusal is.

export const ROLES = ['viewer', 'drafter', 'approver', 'admin'] as const;
export const Role = z.enum(ROLES);
export type Role = z.infer<typeof Role>;

/** Operators from before roles, and the first operator: today's behaviour, everything. */
export const DEFAULT_ROLE: Role = 'admin';

export const ROLE_WORDS: Record<Role, string> = {
  viewer: 'sees the desk and signs nothing',
  drafter: 'drafts requests and cannot approve them',
  approver: 'drafts and approves requests and batches',
  admin: 'approves requests, and proposes and approves operator, role and policy changes and unfreezes',
};

/** What a signature does: draft a request, approve or reject one, change governance, or freeze. */
export type Act = 'draft' | 'approve' | 'change' | 'freeze';

const MAY: Record<Act, ReadonlySet<Role>> = {
  draft: new Set(['drafter', 'approver', 'admin']),
  approve: new Set(['approver', 'admin']),
  change: new Set(['admin']),
  freeze: new Set(['drafter', 'approver', 'admin']),
};

/** "an admin", "a viewer": roles named in sentences. */
export function aRole(role: Role): string {
  return `${role === 'admin' || role === 'approver' ? 'an' : 'a'} ${role}`;
}

export function may(role: Role, act: Act): boolean {
  return MAY[act].has(role);
}
