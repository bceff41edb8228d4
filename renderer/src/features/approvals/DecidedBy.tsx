import type { ApprovalItem } from '../../../../shared/ipc.ts';

// What judged a decided item, as it was recorded when it was decided: its rule, its quorum and the policy
// then in force. A later policy never changes these words.

type Decided = Exclude<ApprovalItem['decided'], undefined>;

export function decidedWords(d: Decided): string {
  if (d === null) return 'rule not recorded (decided before the desk recorded it)';
  const policy = d.policy ? `policy v${d.version} (${d.policy})` : 'the default policy';
  const quorum = d.quorum === null ? 'blocked' : `quorum ${d.quorum}`;
  return `${d.rule ?? 'no rule'} · ${quorum} · ${policy}`;
}

export function DecidedBy({ decided }: { decided: Decided }) {
  return (
    <span data-testid="decided" title="The rule, quorum and policy that decided it, as recorded then">
      {decidedWords(decided)}
    </span>
  );
}
