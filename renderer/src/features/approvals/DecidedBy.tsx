import type { ApprovalItem } from '../../../../shared/ipc.ts';
import { decisionWords } from '../../../../shared/decisionWords.ts';

// What judged a decided item, as it was recorded when it was decided: its rule, its quorum and the policy
// then in force. A later policy never changes these words.

export function DecidedBy({ decided }: { decided: Exclude<ApprovalItem['decided'], undefined> }) {
  return (
    <span data-testid="decided" title="The rule, quorum and policy that decided it, as recorded then">
      {decisionWords(decided)}
    </span>
  );
}
