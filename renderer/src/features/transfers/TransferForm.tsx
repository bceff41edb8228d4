import { useState, type ReactNode } from 'react';
import { WriteRequest } from '../../../../shared/api/writes.ts';
import type { ChannelRequest, Review } from '../../../../shared/ipc.ts';
import { groupDigits } from '../../../../shared/money.ts';
import { ErrorPanel } from '../../components/ErrorPanel.tsx';
import { Field } from '../../components/Field.tsx';
import { useDeskMutation } from '../../desk/hooks.ts';
import { ReviewStep } from '../approvals/index.ts';
import { ageText, overdraws } from './drawBalance.ts';
import {
  EMPTY,
  FORM_NAMES,
  MAIN_SUB_TYPES,
  needsPair,
  needsSettle,
  OWN_SIDES,
  sourceOf,
  SUB_SIDES,
  toWrite,
  type TransferFormKind,
  type Values,
} from './transferWrite.ts';
import { useDrawBalance } from './useDrawBalance.ts';

// One form per kind of move between the operator's own accounts. Fields are checked by the contract's
// own schema (WriteRequest), the amount against the balance it draws from, both before anything is
// reviewed; the review shows the policy's verdict and the exact body, and drafting goes to the
// confirmation window like any write.

type Write = ChannelRequest<'approvalsDraft'>['write'];
type Errors = Partial<Record<keyof Values | 'form', string>>;

function sentence(m: string): string {
  return `${m[0]!.toUpperCase()}${m.slice(1)}${/[.!?]$/.test(m) ? '' : '.'}`;
}

/** The contract's verdict on the form's write, per field. */
function fieldErrors(write: Write): Errors {
  const r = WriteRequest.safeParse(write);
  if (r.success) return {};
  const out: Errors = {};
  for (const issue of r.error.issues) {
    const field = (issue.path[1] as keyof Values | undefined) ?? 'form';
    out[field] ??= sentence(issue.message);
  }
  return out;
}

function Choice<T extends string>({
  value,
  options,
  onChange,
  names,
  ...aria
}: {
  value: T;
  options: readonly T[];
  onChange: (v: T) => void;
  names?: Record<string, string>;
}) {
  // `aria`: the id and aria-* attributes Field hands its control.
  return (
    <select {...aria} value={value} onChange={(e) => onChange(e.target.value as T)}>
      {options.map((o) => (
        <option key={o} value={o}>
          {names?.[o] ?? o}
        </option>
      ))}
    </select>
  );
}

function SourceLine({
  owner,
  kind,
  available,
  fetchedAt,
  loading,
  currency,
}: {
  owner: string;
  kind: string;
  available: string | null;
  fetchedAt: number | null;
  loading: boolean;
  currency: string;
}) {
  const who = owner === 'main' ? 'the main account' : /^\d+$/.test(owner) ? `sub-account ${owner}` : 'the sub-account (not chosen yet)';
  let text: ReactNode;
  if (loading) text = 'reading its balance…';
  else if (available === null) text = `the desk holds no balance for this account; the exchange checks the amount.`;
  else
    text = (
      <>
        <strong data-testid="draw-available">
          {groupDigits(available)} {currency.trim().toUpperCase()}
        </strong>{' '}
        available ({ageText(fetchedAt, Date.now())})
      </>
    );
  return (
    <p className="small" data-testid="draw-balance">
      Draws from {who}'s {kind} account: {text}
    </p>
  );
}

export function TransferForm({
  form,
  initial,
  subKeys,
}: {
  form: TransferFormKind;
  initial?: Partial<Values>;
  subKeys: readonly string[];
}) {
  const [v, setV] = useState<Values>({
    ...EMPTY,
    ...(form === 'sub_own' && !initial?.sub_account && subKeys[0] ? { sub_account: subKeys[0] } : {}),
    ...initial,
  });
  const [errors, setErrors] = useState<Errors>({});
  const [review, setReview] = useState<{ review: Review; write: Write } | null>(null);
  const reviewIt = useDeskMutation('approvalsReview');
  const source = sourceOf(form, v);
  const drawn = useDrawBalance(source, v.currency);
  const set =
    <K extends keyof Values>(k: K) =>
    (value: Values[K]) => {
      setV((x) => ({ ...x, [k]: value }));
      setErrors((e) => ({ ...e, [k]: undefined, form: undefined }));
    };
  const text = (k: keyof Values, extra: { inputMode?: 'decimal' | 'numeric'; upper?: boolean } = {}) => (
    <input
      autoComplete="off"
      inputMode={extra.inputMode}
      value={v[k]}
      onChange={(e) => set(k)(extra.upper ? e.target.value.toUpperCase() : e.target.value)}
    />
  );

  if (review) return <ReviewStep review={review.review} write={review.write} onBack={() => setReview(null)} />;

  const submit = (e: React.FormEvent) => {
    e.preventDefault();
    const write = toWrite(form, v);
    const found = fieldErrors(write);
    const over = found.amount ? null : overdraws(v.amount.trim(), drawn.available, v.currency);
    if (over) found.amount = over;
    setErrors(found);
    if (Object.values(found).some(Boolean)) return;
    reviewIt.mutate({ write }, { onSuccess: (r) => setReview({ review: r, write }) });
  };

  const sides = (
    <>
      <Field label="From account" error={errors.from}>
        <Choice value={v.from} options={OWN_SIDES} onChange={set('from')} />
      </Field>
      <Field label="To account" error={errors.to}>
        <Choice value={v.to} options={OWN_SIDES} onChange={set('to')} />
      </Field>
      {needsPair(v) && (
        <Field label="Currency pair" hint="§4.1: names the isolated margin account, such as BTC_USDT" error={errors.currency_pair}>
          {text('currency_pair', { upper: true })}
        </Field>
      )}
      {needsSettle(v) && (
        <Field label="Settle currency" hint={`empty: ${v.currency.trim().toLowerCase() || 'the currency'}`} error={errors.settle}>
          {text('settle')}
        </Field>
      )}
    </>
  );

  return (
    <form className="form card" aria-label={`New transfer: ${FORM_NAMES[form]}`} noValidate onSubmit={submit}>
      <h2>{FORM_NAMES[form]}</h2>
      {form === 'sub_own' && (
        <Field label="Sub-account (signs with its own key)" error={errors.sub_account}>
          <Choice value={v.sub_account} options={subKeys} onChange={set('sub_account')} />
        </Field>
      )}
      {form === 'main_sub' && (
        <>
          <Field label="Direction" error={errors.direction}>
            <Choice
              value={v.direction}
              options={['to', 'from'] as const}
              onChange={set('direction')}
              names={{ to: 'Main → sub-account', from: 'Sub-account → main' }}
            />
          </Field>
          <Field label="Sub-account uid" error={errors.sub_account}>
            {text('sub_account', { inputMode: 'numeric' })}
          </Field>
          <Field label="Sub-account's account" error={errors.sub_account_type}>
            <Choice value={v.sub_account_type} options={MAIN_SUB_TYPES} onChange={set('sub_account_type')} />
          </Field>
        </>
      )}
      {form === 'sub_to_sub' && (
        <>
          <Field label="From sub-account uid" error={errors.sub_account_from}>
            {text('sub_account_from', { inputMode: 'numeric' })}
          </Field>
          <Field label="Its account (from)" error={errors.sub_account_from_type}>
            <Choice value={v.sub_account_from_type} options={SUB_SIDES} onChange={set('sub_account_from_type')} />
          </Field>
          <Field label="To sub-account uid" error={errors.sub_account_to}>
            {text('sub_account_to', { inputMode: 'numeric' })}
          </Field>
          <Field label="Its account (to)" error={errors.sub_account_to_type}>
            <Choice value={v.sub_account_to_type} options={SUB_SIDES} onChange={set('sub_account_to_type')} />
          </Field>
        </>
      )}
      {(form === 'own' || form === 'sub_own') && sides}
      <Field label="Currency" error={errors.currency}>
        {text('currency', { upper: true })}
      </Field>
      <Field label="Amount" error={errors.amount}>
        {text('amount', { inputMode: 'decimal' })}
      </Field>
      <SourceLine
        owner={source.owner}
        kind={source.kind}
        available={drawn.available}
        fetchedAt={drawn.fetchedAt}
        loading={drawn.loading}
        currency={v.currency}
      />
      {drawn.error && <ErrorPanel error={drawn.error} onRetry={drawn.refetch} />}
      {errors.form && (
        <p className="field-error" role="alert">
          {errors.form}
        </p>
      )}
      {reviewIt.isError && <ErrorPanel error={reviewIt.error} />}
      <div className="actions">
        <button className="primary" type="submit" disabled={reviewIt.isPending}>
          Review
        </button>
      </div>
    </form>
  );
}
