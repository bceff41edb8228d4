import { useState } from 'react';
import type { ChannelRequest, Review } from '../../../../shared/ipc.ts';
import { amountProblem } from '../../../../shared/money.ts';
import { ErrorPanel } from '../../components/ErrorPanel.tsx';
import { useDeskMutation } from '../../desk/hooks.ts';
import { ReviewStep } from './ReviewStep.tsx';

/** §4.2 POST /withdrawals/push: money leaving to another account, under the same policy. */
export function UidTransferForm() {
  const [uid, setUid] = useState('');
  const [currency, setCurrency] = useState('USDT');
  const [amount, setAmount] = useState('');
  const [review, setReview] = useState<Review | null>(null);
  const reviewIt = useDeskMutation('approvalsReview');
  const write: ChannelRequest<'approvalsDraft'>['write'] = { kind: 'uid_transfer', input: { receive_uid: uid, currency, amount } };
  const problem = amount ? amountProblem(amount) : null;
  if (review) return <ReviewStep review={review} write={write} onBack={() => setReview(null)} />;
  return (
    <form className="form card" aria-label="New UID transfer" onSubmit={(e) => { e.preventDefault(); reviewIt.mutate({ write }, { onSuccess: setReview }); }}>
      <h2>New UID transfer</h2>
      <label>Receiver's user id<input aria-label="Receiver user id" value={uid} onChange={(e) => setUid(e.target.value.trim())} /></label>
      <label>Currency<input aria-label="UID currency" value={currency} onChange={(e) => setCurrency(e.target.value.trim().toUpperCase())} /></label>
      <label>Amount<input aria-label="UID amount" inputMode="decimal" value={amount} onChange={(e) => setAmount(e.target.value.trim())} /></label>
      {uid && !/^\d{1,18}$/.test(uid) && <p className="field-error">A user id is digits.</p>}
      {problem && <p className="field-error">The amount {problem}.</p>}
      {reviewIt.isError && <ErrorPanel error={reviewIt.error} />}
      <button className="primary" type="submit" disabled={!/^\d{1,18}$/.test(uid) || !amount || !!problem}>Review</button>
    </form>
  );
}
