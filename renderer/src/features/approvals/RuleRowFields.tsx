import { useId } from 'react';
import type { FieldErrors, UseFormRegister } from 'react-hook-form';
import { DESTINATIONS } from '../../../../shared/api/policy.ts';
import { WRITE_KINDS } from '../../../../shared/api/writes.ts';
import { fieldMessage } from '../../components/deskForm.ts';
import { Field } from '../../components/Field.tsx';
import { checkedRule, type PolicyFormValues, type RuleRow } from './policyFormSchema.ts';
import { capitalised, DESTINATION_WORDS, KIND_WORDS, ruleSentence } from './ruleSentence.ts';

type RowErrors = NonNullable<FieldErrors<PolicyFormValues>['rules']>[number];

/** Ticks for a list field (kinds, destinations): none ticked means any. */
function Ticks({
  legend,
  name,
  options,
  register,
  error,
}: {
  legend: string;
  name: `rules.${number}.kinds` | `rules.${number}.destinations`;
  options: readonly { value: string; label: string }[];
  register: UseFormRegister<PolicyFormValues>;
  error?: string;
}) {
  const errorId = useId();
  return (
    <fieldset aria-invalid={error ? true : undefined} aria-describedby={error ? errorId : undefined}>
      <legend>{legend}</legend>
      {options.map((o) => (
        <label key={o.value} className="inline">
          <input type="checkbox" value={o.value} {...register(name)} /> {o.label}
        </label>
      ))}
      {error && (
        <span id={errorId} className="field-error">
          {error}
        </span>
      )}
    </fieldset>
  );
}

const KIND_OPTIONS = WRITE_KINDS.map((k) => ({ value: k, label: capitalised(KIND_WORDS[k]) }));
const DESTINATION_OPTIONS = DESTINATIONS.map((d) => ({ value: d, label: capitalised(DESTINATION_WORDS[d]) }));

/** One rule of the policy as a row of fields, with the sentence it reads as and its place in the order. */
export function RuleRowFields({
  index,
  count,
  row,
  errors,
  register,
  onMove,
  onRemove,
  changeNote = null,
}: {
  index: number;
  count: number;
  row: RuleRow;
  errors: RowErrors | undefined;
  register: UseFormRegister<PolicyFormValues>;
  onMove: (to: number) => void;
  onRemove: () => void;
  /** What this rule does to the change quorum, when it sets it above one. */
  changeNote?: string | null;
}) {
  const at = `rules.${index}` as const;
  const name = row.id.trim() || `${index + 1}`;
  const rule = checkedRule(row);
  const whole = fieldMessage(errors?.root ?? (errors as { message?: string } | undefined));
  return (
    <li data-testid="policy-rule">
      <fieldset>
        <legend>
          Rule {index + 1}
          {row.id.trim() ? `: ${row.id.trim()}` : ''}
        </legend>
        <p data-testid="rule-sentence">
          {rule ? ruleSentence(rule, { first: index === 0 }) : <span className="muted">Complete this rule to read it in words.</span>}
        </p>
        {changeNote && (
          <p className="small" data-testid="rule-change-quorum">
            {changeNote}
          </p>
        )}
        {whole && (
          <p className="field-error" role="alert">
            {whole}
          </p>
        )}
        <div className="row">
          <Field label="Id" error={fieldMessage(errors?.id)}>
            <input autoComplete="off" spellCheck={false} {...register(`${at}.id`)} />
          </Field>
          <Field label="Action" error={fieldMessage(errors?.action)}>
            <select {...register(`${at}.action`)}>
              <option value="allow">Allow without approval</option>
              <option value="require">Require approvals</option>
              <option value="block">Block</option>
            </select>
          </Field>
          {row.action === 'require' && (
            <>
              <Field label="Approvals" error={fieldMessage(errors?.approvals)}>
                <input inputMode="numeric" size={4} {...register(`${at}.approvals`)} />
              </Field>
              <label className="inline">
                <input type="checkbox" {...register(`${at}.drafter_may_approve`)} /> The drafter may approve
              </label>
            </>
          )}
        </div>
        <Ticks
          legend="Kinds (none ticked: any)"
          name={`${at}.kinds`}
          options={KIND_OPTIONS}
          register={register}
          error={fieldMessage(errors?.kinds)}
        />
        <div className="row">
          <Field label="Currencies (comma-separated; empty: any)" error={fieldMessage(errors?.currencies)}>
            <input autoComplete="off" spellCheck={false} {...register(`${at}.currencies`)} />
          </Field>
          <Field label="Amount at least (own currency)" error={fieldMessage(errors?.amount_at_least)}>
            <input inputMode="decimal" {...register(`${at}.amount_at_least`)} />
          </Field>
          <Field label="USDT value at least" error={fieldMessage(errors?.usdt_at_least)}>
            <input inputMode="decimal" {...register(`${at}.usdt_at_least`)} />
          </Field>
          <Field label="24-hour outflow at least" error={fieldMessage(errors?.velocity_24h_at_least)}>
            <input inputMode="decimal" {...register(`${at}.velocity_24h_at_least`)} />
          </Field>
        </div>
        <Ticks
          legend="Destinations (none ticked: any)"
          name={`${at}.destinations`}
          options={DESTINATION_OPTIONS}
          register={register}
          error={fieldMessage(errors?.destinations)}
        />
        <div className="actions">
          <button type="button" aria-label={`Move rule ${name} up`} disabled={index === 0} onClick={() => onMove(index - 1)}>
            Move up
          </button>
          <button type="button" aria-label={`Move rule ${name} down`} disabled={index === count - 1} onClick={() => onMove(index + 1)}>
            Move down
          </button>
          <button type="button" aria-label={`Remove rule ${name}`} onClick={onRemove}>
            Remove rule
          </button>
        </div>
      </fieldset>
    </li>
  );
}
