import { LOW_CAP_CHOICE, useLowCap } from '../../components/LowCap.tsx';
import { useMemo, useRef, useState } from 'react';
import type { ChannelRequest, Review } from '../../../../shared/ipc.ts';
import { chainProblem, checkAmount, limitsOf, needsMemo, type Limits } from '../../../../shared/withdrawCheck.ts';
import { fieldMessage, useDeskForm } from '../../components/deskForm.ts';
import { ErrorPanel } from '../../components/ErrorPanel.tsx';
import { useDeskMutation, useDeskQuery } from '../../desk/hooks.ts';
import { ReviewStep } from './ReviewStep.tsx';
import { addressField, WITHDRAW_DEFAULTS, withdrawalInput, withdrawFormSchema, type WithdrawValues } from './withdrawFormSchema.ts';
import { dateTime } from '../../components/localTime.ts';

// New withdrawal: currency, then chain (§2.2 flags), then address (saved, address book, or new), then
// amount (precision, §2.7 limits, fee and what arrives), then the review with the policy's verdict.

type Write = ChannelRequest<'approvalsDraft'>['write'];
const AT = ['write', 'input'] as const;
/** The request's address is the typed one or the picked row, whichever the form holds. */
const RENAMED = (v: WithdrawValues) => ({ address: addressField(v) });

export function WithdrawForm() {
  const [review, setReview] = useState<{ review: Review; write: Write } | null>(null);
  const statuses = useDeskQuery('walletWithdrawStatus', {});
  const reviewIt = useDeskMutation('approvalsReview');
  const addToBook = useDeskMutation('addressBookAdd');
  const rules = useRef<{ limits: Limits | null; memoNeeded: boolean }>({ limits: null, memoNeeded: false });
  const schema = useMemo(() => withdrawFormSchema(() => rules.current), []);
  const { register, handleSubmit, setValue, watch, onField, putOnField, formState } = useDeskForm(schema, {
    defaultValues: WITHDRAW_DEFAULTS,
    at: AT,
    renamed: RENAMED,
    mode: 'onChange',
  });
  const v = watch() as WithdrawValues;
  const chains = useDeskQuery('walletCurrencyChains', { currency: v.currency || 'USDT' });
  const saved = useDeskQuery('walletSavedAddresses', { currency: v.currency || 'USDT' });
  const book = useDeskQuery('addressBookList', {});
  const lowCap = useLowCap();

  const status = statuses.data?.find((s) => s.currency === v.currency);
  const ch = chains.data?.find((c) => c.chain === v.chain);
  const limits = status && ch ? limitsOf(status, ch) : null;
  const memoNeeded = ch ? needsMemo(ch) : false;
  rules.current = { limits, memoNeeded };
  const input = withdrawalInput(v);
  const check = limits && v.amount ? checkAmount(v.amount, limits) : null;
  const errors = formState.errors;

  if (review) return <ReviewStep review={review.review} write={review.write} onBack={() => setReview(null)} />;
  const submit = handleSubmit((checked) => {
    const write: Write = { kind: 'withdrawal', input: checked };
    reviewIt.mutate({ write }, { onSuccess: (r) => setReview({ review: r, write }), onError: putOnField });
  });
  const amountProblem = fieldMessage(errors.amount);
  return (
    <form className="form card" aria-label="New withdrawal" noValidate onSubmit={(e) => void submit(e)}>
      <h2>New withdrawal</h2>
      <label>
        Currency
        <select
          aria-label="Currency"
          {...register('currency', {
            onChange: () => {
              setValue('chain', '');
              setValue('pick', '');
            },
          })}
        >
          <option value="">Choose…</option>
          {statuses.data?.map((s) => (
            <option key={s.currency} value={s.currency} disabled={lowCap.has(s.currency)}>
              {s.currency}
              {lowCap.has(s.currency) ? ` (${LOW_CAP_CHOICE})` : ''}
            </option>
          ))}
          {/* Named, not hidden: an operator looking for one of these learns why it cannot be chosen. */}
          {[...lowCap]
            .filter((c) => !statuses.data?.some((s) => s.currency === c))
            .map((c) => (
              <option key={c} value={c} disabled>
                {c} ({LOW_CAP_CHOICE})
              </option>
            ))}
        </select>
      </label>
      {v.currency && (
        <label>
          Chain
          <select aria-label="Chain" {...register('chain', { onChange: () => setValue('pick', '') })}>
            <option value="">Choose…</option>
            {chains.data?.map((c) => {
              const why = chainProblem(c) ?? '';
              return (
                <option key={c.chain} value={c.chain} disabled={!!why}>
                  {c.chain}
                  {c.name_en ? ` — ${c.name_en}` : ''}
                  {why ? ` — ${why}` : ''}
                </option>
              );
            })}
          </select>
        </label>
      )}
      {v.chain && (
        <fieldset aria-invalid={errors.pick ? true : undefined} aria-describedby={errors.pick ? 'withdraw-pick-error' : undefined}>
          <legend>Address</legend>
          {saved.data
            ?.filter((s) => s.chain === v.chain)
            .map((s) => (
              <label key={`s${s.address}`} className="inline">
                <input type="radio" value={`${s.address}|${s.tag}`} {...register('pick')} />
                {s.name} <span className="mono small">{s.address}</span>{' '}
                {s.verified === '1' ? <span className="badge">verified</span> : <span className="small muted">not verified</span>}
              </label>
            ))}
          {book.data
            ?.filter((b) => b.currency === v.currency && b.chain === v.chain)
            .map((b) => (
              <label key={`b${b.address}`} className="inline">
                <input type="radio" value={`${b.address}|${b.memo ?? ''}`} {...register('pick')} />
                address book <span className="mono small">{b.address}</span>
                <span className="small muted">
                  {b.refused
                    ? ` not counted: ${b.refused}`
                    : b.ready_at > Date.now()
                      ? ` signed by ${b.signed_by ?? '?'}, cooling off until ${dateTime(b.ready_at)}`
                      : ` signed by ${b.signed_by ?? '?'}`}
                </span>
              </label>
            ))}
          <label className="inline">
            <input type="radio" value="new" {...register('pick')} /> A new address
          </label>
          {errors.pick && (
            <p id="withdraw-pick-error" className="field-error">
              {fieldMessage(errors.pick)}
            </p>
          )}
          {v.pick === 'new' && (
            <div className="row">
              <input
                aria-label="New address"
                placeholder="address"
                {...register('new_address')}
                aria-invalid={errors.new_address ? true : undefined}
                aria-describedby={errors.new_address ? 'withdraw-address-error' : undefined}
              />
              {memoNeeded && (
                <input
                  aria-label="Memo or tag"
                  placeholder="memo / tag (required on this chain)"
                  {...register('memo')}
                  aria-invalid={errors.memo ? true : undefined}
                />
              )}
              <button
                type="button"
                disabled={!v.new_address.trim()}
                onClick={() =>
                  addToBook.mutate({
                    currency: v.currency,
                    chain: v.chain,
                    address: v.new_address.trim(),
                    ...(v.memo ? { memo: v.memo } : {}),
                  })
                }
              >
                Add to address book
              </button>
              {errors.new_address && (
                <span id="withdraw-address-error" className="field-error">
                  {fieldMessage(errors.new_address)}
                </span>
              )}
            </div>
          )}
          {addToBook.data && (
            <p className="small muted">
              An operator signs the entry in the confirmation window ({addToBook.data.title}); rules that need a known address accept it
              once the cooling-off after that signature is over.
            </p>
          )}
          {addToBook.error && <ErrorPanel error={addToBook.error} />}
        </fieldset>
      )}
      {input.address && (
        <label>
          Amount
          <input
            aria-label="Amount"
            inputMode="decimal"
            {...register('amount', { setValueAs: (s: string) => s.trim() })}
            aria-invalid={amountProblem ? true : undefined}
            aria-describedby={amountProblem ? 'withdraw-amount-error' : undefined}
          />
        </label>
      )}
      {limits && (
        <p className="small muted" data-testid="limits">
          Minimum {limits.min}; at most {limits.eachMax} per withdrawal; {limits.dayRemaining} left today; fee {limits.feeFix} +{' '}
          {limits.feePercent}; precision {limits.chainDecimals} decimals.
        </p>
      )}
      {check?.ok && (
        <p data-testid="arrives">
          Fee {check.fee} {v.currency}; {check.arrives} {v.currency} arrives.
        </p>
      )}
      {amountProblem && (
        <p id="withdraw-amount-error" className="field-error" role="alert">
          {amountProblem}
        </p>
      )}
      {memoNeeded && v.pick === 'new' && !v.memo && <p className="field-error">This chain needs a memo or tag.</p>}
      {reviewIt.isError && !onField(reviewIt.error) && <ErrorPanel error={reviewIt.error} />}
      <div className="actions">
        <button className="primary" type="submit" disabled={!check?.ok || (memoNeeded && !input.memo) || reviewIt.isPending}>
          Review
        </button>
      </div>
    </form>
  );
}
