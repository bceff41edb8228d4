import { useState } from 'react';
import { estimateCost, orderProblems, type OrderDraft } from '../../../../shared/api/orderRules.ts';
import { STP_ACTS, TIME_IN_FORCE, type CurrencyPair } from '../../../../shared/api/orders.ts';
import { ORDER_LABEL_MAX } from '../../../../shared/api/writes.ts';
import type { ChannelRequest, Review } from '../../../../shared/ipc.ts';
import { ErrorPanel } from '../../components/ErrorPanel.tsx';
import { useDeskMutation, useDeskQuery } from '../../desk/hooks.ts';
import { MARKET_POLL_MS } from './MarketPanel.tsx';
import { OrderReview } from './OrderReview.tsx';

type Write = ChannelRequest<'approvalsDraft'>['write'];
type Tif = keyof typeof TIME_IN_FORCE;

/**
 * The order form: the pair's rules are checked as the operator types (precision, minimums), then the
 * review shows the estimate, the fee and the policy's verdict before anything is drafted.
 */
export function OrderForm({ pair, sub }: { pair: CurrencyPair; sub?: string }) {
  const [side, setSide] = useState<'buy' | 'sell'>('buy');
  const [type, setType] = useState<'limit' | 'market'>('limit');
  const [amount, setAmount] = useState('');
  const [price, setPrice] = useState('');
  const [tif, setTif] = useState<Tif>('gtc');
  const [account, setAccount] = useState<'spot' | 'margin'>('spot');
  const [label, setLabel] = useState('');
  const [stp, setStp] = useState<'' | keyof typeof STP_ACTS>('');
  const [review, setReview] = useState<Review | null>(null);
  const ticker = useDeskQuery('spotTicker', { currency_pair: pair.id }, { refetchIntervalMs: MARKET_POLL_MS });
  const reviewIt = useDeskMutation('approvalsReview');

  const draft: OrderDraft = { side, type, amount, ...(type === 'limit' ? { price } : {}) };
  const problems = amount ? orderProblems(draft, pair) : [];
  const labelBad = label !== '' && !new RegExp(`^[0-9A-Za-z_.-]{1,${ORDER_LABEL_MAX}}$`).test(label);
  const tifs = (Object.keys(TIME_IN_FORCE) as Tif[]).filter((k) => type === 'limit' || k === 'ioc' || k === 'fok');
  const write: Write = {
    kind: 'spot_order',
    input: {
      currency_pair: pair.id,
      side,
      type,
      account,
      amount,
      time_in_force: tifs.includes(tif) ? tif : 'ioc',
      ...(type === 'limit' ? { price } : {}),
      ...(label ? { label } : {}),
      ...(stp ? { stp_act: stp } : {}),
      ...(sub ? { sub_uid: sub } : {}),
    },
  };
  const t = ticker.data;
  const estimate = estimateCost(draft, pair, t?.lowest_ask || null, t?.highest_bid || null);
  const problemOf = (f: 'amount' | 'price') =>
    problems
      .filter((p) => p.field === f)
      .map((p) => p.message)
      .join('; ');
  const amountProblem = problemOf('amount');
  const priceProblem = problemOf('price');
  const ready = amount !== '' && (type === 'market' || price !== '') && problems.length === 0 && !labelBad;

  if (review) {
    return (
      <OrderReview
        review={review}
        write={write}
        estimate={estimate}
        onBack={() => setReview(null)}
        onDrafted={() => {
          setReview(null);
          setAmount('');
        }}
      />
    );
  }
  const unit = type === 'market' && side === 'buy' ? pair.quote : pair.base;
  return (
    <form
      className="form card"
      aria-label="New order"
      onSubmit={(e) => {
        e.preventDefault();
        if (ready) reviewIt.mutate({ write }, { onSuccess: setReview });
      }}
    >
      <h2>New order{sub ? ` for sub-account ${sub}` : ''}</h2>
      <div className="segmented" role="group" aria-label="Side">
        {(['buy', 'sell'] as const).map((s) => (
          <button key={s} type="button" aria-pressed={side === s} onClick={() => setSide(s)}>
            {s === 'buy' ? 'Buy' : 'Sell'}
          </button>
        ))}
      </div>
      <div className="two">
        <label>
          Type
          <select
            aria-label="Type"
            value={type}
            onChange={(e) => {
              const v = e.target.value as 'limit' | 'market';
              setType(v);
              if (v === 'market') setTif('ioc');
            }}
          >
            <option value="limit">Limit</option>
            <option value="market">Market</option>
          </select>
        </label>
        <label>
          Account
          <select aria-label="Account" value={account} onChange={(e) => setAccount(e.target.value as 'spot' | 'margin')}>
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
            value={amount}
            onChange={(e) => setAmount(e.target.value.trim())}
            aria-invalid={amountProblem ? true : undefined}
            aria-describedby={amountProblem ? 'order-amount-error' : undefined}
          />
          {amountProblem && (
            <span id="order-amount-error" className="field-error">
              {amountProblem}
            </span>
          )}
        </label>
        {type === 'limit' && (
          <label>
            Price ({pair.quote})
            <input
              aria-label="Price"
              inputMode="decimal"
              value={price}
              onChange={(e) => setPrice(e.target.value.trim())}
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
          <select aria-label="Time in force" value={tifs.includes(tif) ? tif : 'ioc'} onChange={(e) => setTif(e.target.value as Tif)}>
            {tifs.map((k) => (
              <option key={k} value={k}>
                {TIME_IN_FORCE[k]}
              </option>
            ))}
          </select>
        </label>
        <label>
          Self-trade prevention
          <select aria-label="Self-trade prevention" value={stp} onChange={(e) => setStp(e.target.value as '' | keyof typeof STP_ACTS)}>
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
          value={label}
          maxLength={ORDER_LABEL_MAX + 5}
          onChange={(e) => setLabel(e.target.value.trim())}
          aria-invalid={labelBad ? true : undefined}
          aria-describedby={labelBad ? 'order-label-error' : 'order-label-hint'}
        />
        {labelBad ? (
          <span id="order-label-error" className="field-error">
            A label is 1 to {ORDER_LABEL_MAX} letters, digits, _ - or .
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
      {reviewIt.isError && <ErrorPanel error={reviewIt.error} />}
      <div className="actions">
        <button className="primary" type="submit" disabled={!ready || reviewIt.isPending}>
          Review
        </button>
      </div>
    </form>
  );
}
