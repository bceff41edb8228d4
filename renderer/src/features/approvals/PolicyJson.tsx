import { useId, useState } from 'react';
import type { Policy } from '../../../../shared/api/policy.ts';
import { asSentence } from '../../../../shared/sentence.ts';
import { saveText } from '../../components/saveText.ts';
import { checkPolicy, formPathOf, PolicyFormSchema, valuesOf, whereWords, type PolicyFormValues } from './policyFormSchema.ts';

/**
 * Text into the editor's values: the contract's Policy first (unknown keys, types), then the form's own
 * schema, so that a text is refused exactly where the rows would be; the problem is said with its place.
 */
export function loadPolicyText(text: string): { values: PolicyFormValues } | { problem: string } {
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch {
    return { problem: 'the text is not valid JSON' };
  }
  const rules = (raw as { rules?: unknown } | null)?.rules;
  const ids = Array.isArray(rules) ? rules.map((r) => (r as { id?: unknown } | null)?.id) : [];
  const policy = checkPolicy(raw);
  if (!policy.success) {
    const issue = policy.error.issues[0]!;
    return { problem: `in ${whereWords(formPathOf(issue), ids)}: ${issue.message}` };
  }
  const values = valuesOf(policy.data);
  const checked = PolicyFormSchema.safeParse(values);
  if (!checked.success) {
    const issue = checked.error.issues[0]!;
    return { problem: `in ${whereWords(issue.path, ids)}: ${issue.message}` };
  }
  return { values };
}

/** The policy as JSON: the candidate to copy or download, and a text to load into the rows. */
export function PolicyJson({ candidate, onLoad }: { candidate: Policy | null; onLoad: (values: PolicyFormValues) => void }) {
  const [text, setText] = useState('');
  const [problem, setProblem] = useState<string | null>(null);
  const problemId = useId();
  const json = candidate ? JSON.stringify(candidate, null, 2) : null;
  const load = () => {
    const loaded = loadPolicyText(text);
    if ('problem' in loaded) return setProblem(asSentence(loaded.problem));
    setProblem(null);
    onLoad(loaded.values);
  };
  return (
    <details>
      <summary>As JSON: export and import</summary>
      {json ? (
        <>
          <textarea aria-label="Policy as JSON" readOnly rows={10} cols={90} className="mono" value={json} />
          <div className="actions">
            <button type="button" onClick={() => saveText(json, 'policy.json', 'application/json')}>
              Download policy.json
            </button>
          </div>
        </>
      ) : (
        <p className="muted">The rows have a problem: once they are complete, their JSON shows here.</p>
      )}
      <textarea
        aria-label="Policy JSON to load"
        rows={8}
        cols={90}
        className="mono"
        value={text}
        onChange={(e) => setText(e.target.value)}
        aria-invalid={problem ? true : undefined}
        aria-describedby={problem ? problemId : undefined}
      />
      {problem && (
        <p id={problemId} className="field-error" role="alert">
          {problem}
        </p>
      )}
      <div className="actions">
        <button type="button" onClick={load}>
          Load into the editor
        </button>
      </div>
    </details>
  );
}
