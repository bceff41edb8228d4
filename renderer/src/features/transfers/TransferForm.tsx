import { useId, useMemo, useRef, useState, type ReactNode } from 'react';
import type { UseFormRegisterReturn } from 'react-hook-form';
import type { ChannelRequest, Review } from '../../../../shared/ipc.ts';
import { groupDigits } from '../../../../shared/money.ts';
import { fieldMessage, useDeskForm } from '../../components/deskForm.ts';
import { ErrorPanel } from '../../components/ErrorPanel.tsx';
import { Field } from '../../components/Field.tsx';
import { useDeskMutation } from '../../desk/hooks.ts';
import { ReviewStep } from '../approvals/index.ts';
import { ageText } from './drawBalance.ts';
import { transferFormSchema } from './transferFormSchema.ts';
import {
  EMPTY,
  FORM_NAMES,
  MAIN_SUB_TYPES,
  needsPair,
  needsSettle,
  OWN_SIDES,
  sourceOf,
  SUB_SIDES,
  type TransferFormKind,
  type Values,
} from './transferWrite.ts';
import { useDrawBalance } from './useDrawBalance.ts';
import { LOCKED_WHY, subAccountHint, useKnownSubAccounts, useLockedSubAccounts, type KnownSubAccount } from './useKnownSubAccounts.ts';

// One form per kind of move between the operator's own accounts. Fields are checked by the contract's
// own schema (WriteRequest), the amount against the balance it draws from, both before anything is
// reviewed; the review shows the policy's verdict and the exact body, and drafting goes to the
// confirmation window like any write.

type Write = ChannelRequest<'approvalsDraft'>['write'];
const AT = ['write', 'input'] as const;

function Choice<T extends string>({
  field,
  options,
  names,
  ...rest
}: {
  field: UseFormRegisterReturn;
  options: readonly T[];
  names?: Record<string, string>;
}) {
  // `rest`: the id and aria-* attributes Field hands its control.
  return (
    <select {...rest} {...field}>
      {options.map((o) => (
        <option key={o} value={o}>
          {names?.[o] ?? o}
        </option>
      ))}
    </select>
  );
}

/** The known sub-accounts as the choices of a uid field: login name and uid; typing a uid still works, and is checked. */
function SubAccountChoices({ id, known }: { id: string; known: readonly KnownSubAccount[] }) {
  return (
    <datalist id={id} data-testid="known-sub-accounts">
      {known.map((k) => (
        <option key={k.uid} value={k.uid} label={k.name ? `${k.name} (${k.uid})` : k.uid} />
      ))}
    </datalist>
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
  const [review, setReview] = useState<{ review: Review; write: Write } | null>(null);
  const reviewIt = useDeskMutation('approvalsReview');
  // The balance loads after the form is made: the schema reads it when the check runs.
  const available = useRef<string | null>(null);
  const schema = useMemo(() => transferFormSchema(form, () => available.current), [form]);
  const {
    register,
    handleSubmit,
    watch,
    onField,
    putOnField,
    formState: { errors },
  } = useDeskForm(schema, {
    defaultValues: {
      ...EMPTY,
      ...(form === 'sub_own' && !initial?.sub_account && subKeys[0] ? { sub_account: subKeys[0] } : {}),
      ...initial,
    },
    at: AT,
  });
  const v = watch() as Values;
  const known = useKnownSubAccounts(form === 'main_sub' || form === 'sub_to_sub');
  const locked = useLockedSubAccounts(form !== 'own');
  const listId = `${useId()}-sub-accounts`;
  const source = sourceOf(form, v);
  const drawn = useDrawBalance(source, v.currency);
  available.current = drawn.available;
  const problem = (k: keyof Values) => fieldMessage(errors[k]);
  const text = (k: keyof Values, extra: { inputMode?: 'decimal' | 'numeric'; upper?: boolean; list?: string } = {}) => {
    const field = register(k);
    return (
      <input
        autoComplete="off"
        inputMode={extra.inputMode}
        list={extra.list}
        {...field}
        onChange={(e) => {
          if (extra.upper) e.target.value = e.target.value.toUpperCase();
          void field.onChange(e);
        }}
      />
    );
  };
  // "from and to must differ" is said on "to": either side changing checks it again.
  const side = (k: 'from' | 'to') => register(k, { deps: [k === 'from' ? 'to' : 'from'] });

  if (review) return <ReviewStep review={review.review} write={review.write} onBack={() => setReview(null)} />;

  const submit = handleSubmit((write) => {
    reviewIt.mutate({ write }, { onSuccess: (r) => setReview({ review: r, write }), onError: putOnField });
  });

  const sides = (
    <>
      <Field label="From account" error={problem('from')}>
        <Choice field={side('from')} options={OWN_SIDES} />
      </Field>
      <Field label="To account" error={problem('to')}>
        <Choice field={side('to')} options={OWN_SIDES} />
      </Field>
      {needsPair(v) && (
        <Field label="Currency pair" hint="Names the isolated margin account, such as BTC_USDT" error={problem('currency_pair')}>
          {text('currency_pair', { upper: true })}
        </Field>
      )}
      {needsSettle(v) && (
        <Field label="Settle currency" hint={`empty: ${v.currency.trim().toLowerCase() || 'the currency'}`} error={problem('settle')}>
          {text('settle')}
        </Field>
      )}
    </>
  );

  return (
    <form className="form card" aria-label={`New transfer: ${FORM_NAMES[form]}`} noValidate onSubmit={(e) => void submit(e)}>
      <h2>{FORM_NAMES[form]}</h2>
      {form === 'sub_own' && (
        <Field label="Sub-account (signs with its own key)" error={problem('sub_account')}>
          <Choice field={register('sub_account')} options={subKeys.filter((u) => !locked.some((k) => k.uid === u))} />
        </Field>
      )}
      {form === 'main_sub' && (
        <>
          <Field label="Direction" error={problem('direction')}>
            <Choice
              field={register('direction')}
              options={['to', 'from'] as const}
              names={{ to: 'Main → sub-account', from: 'Sub-account → main' }}
            />
          </Field>
          <Field label="Sub-account uid" hint={subAccountHint(v.sub_account, known, locked)} error={problem('sub_account')}>
            {text('sub_account', { inputMode: 'numeric', list: listId })}
          </Field>
          <Field label="Sub-account's account" error={problem('sub_account_type')}>
            <Choice field={register('sub_account_type')} options={MAIN_SUB_TYPES} />
          </Field>
        </>
      )}
      {form === 'sub_to_sub' && (
        <>
          <Field label="From sub-account uid" hint={subAccountHint(v.sub_account_from, known, locked)} error={problem('sub_account_from')}>
            {text('sub_account_from', { inputMode: 'numeric', list: listId })}
          </Field>
          <Field label="Its account (from)" error={problem('sub_account_from_type')}>
            <Choice field={register('sub_account_from_type')} options={SUB_SIDES} />
          </Field>
          <Field label="To sub-account uid" hint={subAccountHint(v.sub_account_to, known, locked)} error={problem('sub_account_to')}>
            {text('sub_account_to', { inputMode: 'numeric', list: listId })}
          </Field>
          <Field label="Its account (to)" error={problem('sub_account_to_type')}>
            <Choice field={register('sub_account_to_type')} options={SUB_SIDES} />
          </Field>
        </>
      )}
      {(form === 'main_sub' || form === 'sub_to_sub') && <SubAccountChoices id={listId} known={known} />}
      {form !== 'own' && locked.length > 0 && (
        <p className="small muted" data-testid="locked-left-out">
          Left out, locked: {locked.map((k) => (k.name ? `${k.name} (${k.uid})` : k.uid)).join(', ')}.{' '}
          {LOCKED_WHY[0]!.toUpperCase() + LOCKED_WHY.slice(1)}.
        </p>
      )}
      {(form === 'own' || form === 'sub_own') && sides}
      <Field label="Currency" error={problem('currency')}>
        {text('currency', { upper: true })}
      </Field>
      <Field label="Amount" error={problem('amount')}>
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
      {reviewIt.isError && !onField(reviewIt.error) && <ErrorPanel error={reviewIt.error} />}
      <div className="actions">
        <button className="primary" type="submit" disabled={reviewIt.isPending}>
          Review
        </button>
      </div>
    </form>
  );
}
