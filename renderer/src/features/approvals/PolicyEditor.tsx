import { type FormEvent, type ReactNode } from 'react';
import { useFieldArray } from 'react-hook-form';
import { changeQuorum, type Policy } from '../../../../shared/api/policy.ts';
import { fieldMessage, useDeskForm } from '../../components/deskForm.ts';
import { ErrorPanel } from '../../components/ErrorPanel.tsx';
import { Field } from '../../components/Field.tsx';
import { useDeskMutation } from '../../desk/hooks.ts';
import { checkedRule, NEW_ROW, PolicyFormSchema, renamedFromPolicy, valuesOf, type PolicyFormValues } from './policyFormSchema.ts';
import { PolicyJson } from './PolicyJson.tsx';
import { RuleRowFields } from './RuleRowFields.tsx';

const AT_POLICY = ['policy'] as const;

/** "2 admins' approvals", "1 admin's approval". */
const admins = (n: number): string => (n === 1 ? "1 admin's approval" : `${n} admins' approvals`);

/**
 * Proposes a new policy for the active profile, rule by rule; it takes effect after the quorum and the
 * cooling-off. `preview` is handed the candidate whenever the rows make a valid policy. `changeQuorumNow`:
 * what operator, role and policy changes need today, beside what the rows would make them need.
 */
export function PolicyEditor({
  current,
  onAsk,
  preview,
  changeQuorumNow,
}: {
  current: Policy;
  onAsk: (title: string) => void;
  preview?: (policy: Policy) => ReactNode;
  changeQuorumNow?: number;
}) {
  const propose = useDeskMutation('approvalsProposePolicy');
  const {
    register,
    handleSubmit,
    control,
    watch,
    reset,
    onField,
    putOnField,
    formState: { errors },
  } = useDeskForm<PolicyFormValues, Policy>(PolicyFormSchema, {
    defaultValues: valuesOf(current),
    at: AT_POLICY,
    renamed: renamedFromPolicy,
  });
  const rows = useFieldArray({ control, name: 'rules' });
  const values = watch();
  const parsed = PolicyFormSchema.safeParse(values);
  const candidate = parsed.success ? parsed.data : null;
  // The change quorum follows the strictest rule (governance/quorum.ts): said live, from the rows that read as rules.
  const changeNeed = changeQuorum({ rules: values.rules.flatMap((r) => checkedRule(r) ?? []) });
  const listProblem = fieldMessage(errors.rules?.root ?? (errors.rules as { message?: string } | undefined));
  // A new attempt clears the last one's answer, so two messages never stand side by side.
  const submit = (e: FormEvent) => {
    propose.reset();
    void handleSubmit((policy) => propose.mutate({ policy }, { onSuccess: (t) => onAsk(t.title), onError: putOnField }))(e);
  };
  return (
    <details>
      <summary>Propose a new policy</summary>
      <form noValidate aria-label="Policy editor" onSubmit={submit}>
        <p>
          Rules are evaluated in order, top to bottom: the first rule that matches a write decides it, and a write that no rule matches is
          blocked. Every condition a rule sets must hold for it to match; an empty condition matches anything.
        </p>
        <ol className="policy-rules">
          {rows.fields.map((f, i) => (
            <RuleRowFields
              key={f.id}
              index={i}
              count={rows.fields.length}
              row={values.rules[i] ?? NEW_ROW}
              errors={errors.rules?.[i]}
              register={register}
              onMove={(to) => rows.move(i, to)}
              onRemove={() => rows.remove(i)}
              changeNote={
                changeNeed > 1 && checkedRule(values.rules[i] ?? NEW_ROW)?.approvals === changeNeed && values.rules[i]?.action === 'require'
                  ? `This rule needs ${changeNeed} approvals, so operator, role and policy changes will need ${admins(changeNeed)} too under this policy${changeQuorumNow !== undefined && changeQuorumNow !== changeNeed ? ` (now ${changeQuorumNow})` : ''}.`
                  : null
              }
            />
          ))}
        </ol>
        {listProblem && (
          <p className="field-error" role="alert">
            {listProblem}
          </p>
        )}
        <div className="actions">
          <button type="button" onClick={() => rows.append({ ...NEW_ROW })}>
            Add rule
          </button>
        </div>
        <div className="row">
          <Field label="Requests expire after (hours)" error={fieldMessage(errors.request_expiry_hours)}>
            <input inputMode="numeric" size={5} {...register('request_expiry_hours')} />
          </Field>
        </div>
        <p data-testid="change-quorum">
          Under this policy, operator, role and policy changes need {admins(changeNeed)}
          {changeQuorumNow !== undefined && changeQuorumNow !== changeNeed ? ` (now ${changeQuorumNow})` : ''}: the most any rule asks, at
          least one.
        </p>
        {candidate && preview?.(candidate)}
        {propose.isError && !onField(propose.error) && <ErrorPanel error={propose.error} />}
        <div className="actions">
          <button type="submit" className="primary" disabled={propose.isPending}>
            Propose this policy
          </button>
        </div>
      </form>
      <PolicyJson candidate={candidate} onLoad={(v) => reset(v)} />
    </details>
  );
}
