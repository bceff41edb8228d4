import { useState } from 'react';
import type { ChannelRequest, Review } from '../../../../shared/ipc.ts';
import { ErrorPanel } from '../../components/ErrorPanel.tsx';
import { useDeskMutation } from '../../desk/hooks.ts';
import { useDeskQuery } from '../../desk/hooks.ts';
import { chainProblem, checkAmount, limitsOf, needsMemo } from '../../../../shared/withdrawCheck.ts';
import { ReviewStep } from './ReviewStep.tsx';

// New withdrawal: currency, then chain (§2.2 flags), then address (saved, address book, or new), then
// amount (precision, §2.7 limits, fee and what arrives), then the review with the policy's verdict.

export function WithdrawForm() {
  const [currency, setCurrency] = useState('');
  const [chain, setChain] = useState('');
  const [pick, setPick] = useState('');
  const [newAddress, setNewAddress] = useState('');
  const [memo, setMemo] = useState('');
  const [amount, setAmount] = useState('');
  const [review, setReview] = useState<Review | null>(null);
  const statuses = useDeskQuery('walletWithdrawStatus', {});
  const chains = useDeskQuery('walletCurrencyChains', { currency: currency || 'USDT' });
  const saved = useDeskQuery('walletSavedAddresses', { currency: currency || 'USDT' });
  const book = useDeskQuery('addressBookList', {});
  const reviewIt = useDeskMutation('approvalsReview');
  const addToBook = useDeskMutation('addressBookAdd');

  const status = statuses.data?.find((s) => s.currency === currency);
  const ch = chains.data?.find((c) => c.chain === chain);
  const address = pick === 'new' ? newAddress.trim() : (pick.split('|')[0] ?? '');
  const pickedMemo = pick === 'new' ? memo : (pick.split('|')[1] ?? '');
  const limits = status && ch ? limitsOf(status, ch) : null;
  const memoNeeded = ch ? needsMemo(ch) : false;
  const check = limits && amount ? checkAmount(amount, limits) : null;
  const write: ChannelRequest<'approvalsDraft'>['write'] = {
    kind: 'withdrawal',
    input: { currency, chain, address, amount, ...(pickedMemo ? { memo: pickedMemo } : {}) },
  };
  const reset = () => setReview(null);

  if (review) return <ReviewStep review={review} write={write} onBack={reset} />;
  return (
    <form
      className="form card"
      aria-label="New withdrawal"
      onSubmit={(e) => {
        e.preventDefault();
        reviewIt.mutate({ write }, { onSuccess: setReview });
      }}
    >
      <h2>New withdrawal</h2>
      <label>
        Currency
        <select
          aria-label="Currency"
          value={currency}
          onChange={(e) => {
            setCurrency(e.target.value);
            setChain('');
            setPick('');
            reset();
          }}
        >
          <option value="">Choose…</option>
          {statuses.data?.map((s) => (
            <option key={s.currency} value={s.currency}>
              {s.currency}
            </option>
          ))}
        </select>
      </label>
      {currency && (
        <label>
          Chain
          <select
            aria-label="Chain"
            value={chain}
            onChange={(e) => {
              setChain(e.target.value);
              setPick('');
            }}
          >
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
      {chain && (
        <fieldset>
          <legend>Address</legend>
          {saved.data
            ?.filter((s) => s.chain === chain)
            .map((s) => (
              <label key={`s${s.address}`} className="inline">
                <input
                  type="radio"
                  name="addr"
                  checked={pick === `${s.address}|${s.tag}`}
                  onChange={() => setPick(`${s.address}|${s.tag}`)}
                />
                {s.name} <span className="mono small">{s.address}</span>{' '}
                {s.verified === '1' ? <span className="badge">verified</span> : <span className="small muted">not verified</span>}
              </label>
            ))}
          {book.data
            ?.filter((b) => b.currency === currency && b.chain === chain)
            .map((b) => (
              <label key={`b${b.address}`} className="inline">
                <input
                  type="radio"
                  name="addr"
                  checked={pick === `${b.address}|${b.memo ?? ''}`}
                  onChange={() => setPick(`${b.address}|${b.memo ?? ''}`)}
                />
                address book <span className="mono small">{b.address}</span>
                <span className="small muted">
                  {b.refused
                    ? ` not counted: ${b.refused}`
                    : b.ready_at > Date.now()
                      ? ` signed by ${b.signed_by ?? '?'}, cooling off until ${new Date(b.ready_at).toLocaleString()}`
                      : ` signed by ${b.signed_by ?? '?'}`}
                </span>
              </label>
            ))}
          <label className="inline">
            <input type="radio" name="addr" checked={pick === 'new'} onChange={() => setPick('new')} /> A new address
          </label>
          {pick === 'new' && (
            <div className="row">
              <input aria-label="New address" value={newAddress} onChange={(e) => setNewAddress(e.target.value)} placeholder="address" />
              {memoNeeded && (
                <input
                  aria-label="Memo or tag"
                  value={memo}
                  onChange={(e) => setMemo(e.target.value)}
                  placeholder="memo / tag (required on this chain)"
                />
              )}
              <button
                type="button"
                disabled={!newAddress.trim()}
                onClick={() => addToBook.mutate({ currency, chain, address: newAddress.trim(), ...(memo ? { memo } : {}) })}
              >
                Add to address book
              </button>
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
      {address && (
        <label>
          Amount
          <input aria-label="Amount" inputMode="decimal" value={amount} onChange={(e) => setAmount(e.target.value.trim())} />
        </label>
      )}
      {limits && (
        <p className="small muted" data-testid="limits">
          Minimum {limits.min}; at most {limits.eachMax} per withdrawal; {limits.dayRemaining} left today; fee {limits.feeFix} +{' '}
          {limits.feePercent}; precision {limits.chainDecimals} decimals.
        </p>
      )}
      {check &&
        (check.ok ? (
          <p data-testid="arrives">
            Fee {check.fee} {currency}; {check.arrives} {currency} arrives.
          </p>
        ) : (
          <p className="field-error" role="alert">
            {check.problem}
          </p>
        ))}
      {memoNeeded && pick === 'new' && !memo && <p className="field-error">This chain needs a memo or tag.</p>}
      {reviewIt.isError && <ErrorPanel error={reviewIt.error} />}
      <div className="actions">
        <button className="primary" type="submit" disabled={!check?.ok || (memoNeeded && !pickedMemo)}>
          Review
        </button>
      </div>
    </form>
  );
}
