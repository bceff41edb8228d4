import { useState } from 'react';
import { Policy } from '../../../../shared/api/policy.ts';
import { ErrorPanel } from '../../components/ErrorPanel.tsx';
import { useDeskMutation } from '../../desk/hooks.ts';

/** Proposes a new policy for the active profile; it takes effect after the quorum and the cooling-off. */
export function PolicyEditor({ current, onAsk }: { current: Policy; onAsk: (title: string) => void }) {
  const [text, setText] = useState(() => JSON.stringify(current, null, 2));
  const [problem, setProblem] = useState<string | null>(null);
  const propose = useDeskMutation('approvalsProposePolicy');
  const submit = () => {
    let raw: unknown;
    try {
      raw = JSON.parse(text);
    } catch {
      return setProblem('The policy is not valid JSON.');
    }
    const parsed = Policy.safeParse(raw);
    if (!parsed.success) {
      const issue = parsed.error.issues[0]!;
      return setProblem(`${issue.path.join('.') || 'policy'}: ${issue.message}`);
    }
    setProblem(null);
    propose.mutate({ policy: parsed.data }, { onSuccess: (t) => onAsk(t.title) });
  };
  return (
    <details>
      <summary>Propose a new policy</summary>
      <textarea aria-label="Policy" rows={14} cols={90} value={text} onChange={(e) => setText(e.target.value)} className="mono" />
      {problem && (
        <p className="field-error" role="alert">
          {problem}
        </p>
      )}
      {propose.isError && <ErrorPanel error={propose.error} />}
      <div className="actions">
        <button type="button" onClick={submit}>
          Propose this policy
        </button>
      </div>
    </details>
  );
}
