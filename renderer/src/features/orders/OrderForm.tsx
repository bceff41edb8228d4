import { useMemo, useState } from 'react';
import { estimateCost } from '../../../../shared/api/orderRules.ts';
import { STP_ACTS, TIME_IN_FORCE, type CurrencyPair } from '../../../../shared/api/orders.ts';
import { ORDER_LABEL_MAX } from '../../../../shared/api/writes.ts';
import type { ChannelRequest, Review } from '../../../../shared/ipc.ts';
import { fieldMessage, useDeskForm } from '../../components/deskForm.ts';
import { ErrorPanel } from '../../components/ErrorPanel.tsx';
import { useDeskMutation, useDeskQuery } from '../../desk/hooks.ts';
import { MARKET_POLL_MS } from './MarketPanel.tsx';
import { OrderReview } from './OrderReview.tsx';
import { ORDER_DEFAULTS, orderFormSchema, tifsOf, type OrderValues } from './orderFormSchema.ts';

type Write = ChannelRequest<'approvalsDraft'>['write'];
const AT = ['write', 'input'] as const;
const trim = (v: string) => v.trim();

/**
 * The order form: the pair's rules are checked as the operator types (precision, minimums), then the
 * review shows the estimate, the fee and the policy's verdict before anything is drafted.
 */
export function OrderForm({ pair, sub }: { pair: CurrencyPair; sub?: string }) {
  const [review, setReview] = useState<{ review: Review; write: Write } | null>(null);
  const ticker = useDeskQuery('spotTicker', { currency_pair: pair.id }, { refetchIntervalMs: MARKET_POLL_MS });
  const reviewIt = useDeskMutation('approvalsReview');
  const schema = useMemo(() => orderFormSchema(pair, sub), [pair, sub]);
  const {
    register,
    handleSubmit,
    setValue,
    watch,
    onField,
    putOnField,
    formState: { errors, isValid },
  } = useDeskForm(schema, { defaultValues: ORDER_DEFAULTS, at: AT, mode: 'onChange' });
  const v = watch() as OrderValues;
  const tifs = tifsOf(v.type);
  const t = ticker.data;
  const estimate = estimateCost(
    { side: v.side, type: v.type, amount: v.amount, ...(v.type === 'limit' ? { price: v.price } : {}) },
    pair,
    t?.lowest_ask || null,
    t?.highest_bid || null,
  );
  // The pair's rules read as one line of clauses beside the figure ("…; it must be at least 1 USDT").
  const amountProblem = errors.amount?.message;
  const priceProblem = errors.price?.message;
  const labelProblem = fieldMessage(errors.label);

  if (review) {
    return (
      <OrderReview
        review={review.review}
        write={review.write}
        estimate={estimate}
        onBack={() => setReview(null)}
        onDrafted={() => {
          setReview(null);
          setValue('amount', '');
        }}
      />
    );
  }
  const submit = handleSubmit((input) => {
    const write: Write = { kind: 'spot_order', input };
    reviewIt.mutate({ write }, { onSuccess: (r) => setReview({ review: r, write }), onError: putOnField });
  });
  const unit = v.type === 'market' && v.side === 'buy' ? pair.quote : pair.base;
  return (
    <form className="form card" aria-label="New order" noValidate onSubmit={(e) => void submit(e)}>
      <h2>New order{sub ? ` for sub-account ${sub}` : ''}</h2>
      <div className="segmented" role="group" aria-label="Side">
        {(['buy', 'sell'] as const).map((s) => (
          <button key={s} type="button" aria-pressed={v.side === s} onClick={() => setValue('side', s, { shouldValidate: true })}>
            {s === 'buy' ? 'Buy' : 'Sell'}
          </button>
        ))}
      </div>
      <div className="two">
        <label>
          Type
          <select
            aria-label="Type"
            {...register('type', {
              deps: ['amount', 'price'],
              onChange: (e) => {
                if (e.target.value === 'market') setValue('time_in_force', 'ioc');
              },
            })}
          >
            <option value="limit">Limit</option>
            <option value="market">Market</option>
          </select>
        </label>
        <label>
          Account
          <select aria-label="Account" {...register('account')}>
            <option value="spot">Spot</option>
            <option value="margin">Isolated margin</option>
          </select>
        </label>
      </div>
      <div className="two">
        <label>
          Amount ({unit})
          <input
            aria-label="Amount"
            inputMode="decimal"
            {...register('amount', { setValueAs: trim, deps: ['price'] })}
            aria-invalid={amountProblem ? true : undefined}
            aria-describedby={amountProblem ? 'order-amount-error' : undefined}
          />
          {amountProblem && (
            <span id="order-amount-error" className="field-error">
              {amountProblem}
            </span>
          )}
        </label>
        {v.type === 'limit' && (
          <label>
            Price ({pair.quote})
            <input
              aria-label="Price"
              inputMode="decimal"
              {...register('price', { setValueAs: trim, deps: ['amount'] })}
              aria-invalid={priceProblem ? true : undefined}
              aria-describedby={priceProblem ? 'order-price-error' : undefined}
            />
            {priceProblem && (
              <span id="order-price-error" className="field-error">
                {priceProblem}
              </span>
            )}
          </label>
        )}
      </div>
      <div className="two">
        <label>
          Time in force
          <select aria-label="Time in force" {...register('time_in_force')}>
            {tifs.map((k) => (
              <option key={k} value={k}>
                {TIME_IN_FORCE[k]}
              </option>
            ))}
          </select>
        </label>
        <label>
          Self-trade prevention
          <select aria-label="Self-trade prevention" {...register('stp_act')}>
            <option value="">None</option>
            {(Object.keys(STP_ACTS) as Array<keyof typeof STP_ACTS>).map((k) => (
              <option key={k} value={k}>
                {STP_ACTS[k]}
              </option>
            ))}
          </select>
        </label>
      </div>
      <label>
        Label (optional)
        <input
          aria-label="Label"
          maxLength={ORDER_LABEL_MAX + 5}
          {...register('label', { setValueAs: trim })}
          aria-invalid={labelProblem ? true : undefined}
          aria-describedby={labelProblem ? 'order-label-error' : 'order-label-hint'}
        />
        {labelProblem ? (
          <span id="order-label-error" className="field-error">
            {labelProblem}
          </span>
        ) : (
          <span id="order-label-hint" className="small muted">
            The order's text will be t-label. and a unique id, so that the desk can always find it.
          </span>
        )}
      </label>
      <p className="small muted" data-testid="pair-rules">
        {pair.id}: amounts to {pair.amount_precision} decimals, at least {pair.min_base_amount || '—'} {pair.base}; prices to{' '}
        {pair.precision} decimals; orders worth at least {pair.min_quote_amount || '—'} {pair.quote}; fee {pair.fee} %.
      </p>
      {reviewIt.isError && !onField(reviewIt.error) && <ErrorPanel error={reviewIt.error} />}
      <div className="actions">
        <button className="primary" type="submit" disabled={!isValid || reviewIt.isPending}>
          Review
        </button>
      </div>
    </form>
  );
}
