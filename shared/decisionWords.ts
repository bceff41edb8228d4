import type { Decision } from './api/policy.ts';

// What decided an approval, in the words the Approvals page, the Journal page and its CSV export all use.

/** `null`: decided by a record from before decisions were recorded. */
export function decisionWords(d: Decision | null): string {
  if (d === null) return 'rule not recorded (decided before the desk recorded it)';
  const policy = d.policy ? `policy v${d.version} (${d.policy})` : 'the default policy';
  const quorum = d.quorum === null ? 'blocked' : `quorum ${d.quorum}`;
  return `${d.rule ?? 'no rule'} · ${quorum} · ${policy}`;
}
