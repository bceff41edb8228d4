import { z } from 'zod';
import { Policy } from '../../../../shared/api/policy.ts';
import { fieldMessage, useDeskForm } from '../../components/deskForm.ts';
import { ErrorPanel } from '../../components/ErrorPanel.tsx';
import { useDeskMutation } from '../../desk/hooks.ts';

/**
 * The policy as typed (JSON) checked by the contract's Policy: the first problem is said on the text with
 * where inside it ("at rules.0.approvals: …"), as a refusal of the core inside the policy is.
 */
const PolicyFormSchema = z.object({ policy: z.string() }).transform((v, ctx) => {
  let raw: unknown;
  try {
    raw = JSON.parse(v.policy);
  } catch {
    ctx.addIssue({ code: 'custom', path: ['policy'], message: 'the policy is not valid JSON' });
    return z.NEVER;
  }
  const parsed = Policy.safeParse(raw);
  if (parsed.success) return { policy: parsed.data };
  const issue = parsed.error.issues[0]!;
  ctx.addIssue({ code: 'custom', path: ['policy'], message: `at ${issue.path.join('.') || 'the top'}: ${issue.message}` });
  return z.NEVER;
});

/** Proposes a new policy for the active profile; it takes effect after the quorum and the cooling-off. */
export function PolicyEditor({ current, onAsk }: { current: Policy; onAsk: (title: string) => void }) {
  const propose = useDeskMutation('approvalsProposePolicy');
  const {
    register,
    handleSubmit,
    onField,
    putOnField,
    formState: { errors },
  } = useDeskForm(PolicyFormSchema, { defaultValues: { policy: JSON.stringify(current, null, 2) } });
  const problem = fieldMessage(errors.policy);
  const submit = handleSubmit((request) => propose.mutate(request, { onSuccess: (t) => onAsk(t.title), onError: putOnField }));
  return (
    <details>
      <summary>Propose a new policy</summary>
      <form noValidate onSubmit={(e) => void submit(e)}>
        <textarea
          aria-label="Policy"
          rows={14}
          cols={90}
          className="mono"
          {...register('policy')}
          aria-invalid={problem ? true : undefined}
          aria-describedby={problem ? 'policy-problem' : undefined}
        />
        {problem && (
          <p id="policy-problem" className="field-error" role="alert">
            {problem}
          </p>
        )}
        {propose.isError && !onField(propose.error) && <ErrorPanel error={propose.error} />}
        <div className="actions">
          <button type="submit">Propose this policy</button>
        </div>
      </form>
    </details>
  );
}
