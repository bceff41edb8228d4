import { useState } from 'react';
import type { z } from 'zod';
import { UidTransferInput } from '../../../../shared/api/writes.ts';
import type { ChannelRequest, Review } from '../../../../shared/ipc.ts';
import { fieldMessage, useDeskForm } from '../../components/deskForm.ts';
import { ErrorPanel } from '../../components/ErrorPanel.tsx';
import { Field } from '../../components/Field.tsx';
import { useDeskMutation } from '../../desk/hooks.ts';
import { ReviewStep } from './ReviewStep.tsx';

type Values = z.input<typeof UidTransferInput>;
type Write = ChannelRequest<'approvalsDraft'>['write'];

const AT = ['write', 'input'] as const;

/** §4.2 POST /withdrawals/push: money leaving to another account, under the same policy. Checked by the contract's own schema. */
export function UidTransferForm() {
  const [write, setWrite] = useState<Write | null>(null);
  const [review, setReview] = useState<Review | null>(null);
  const reviewIt = useDeskMutation('approvalsReview');
  const {
    register,
    handleSubmit,
    onField,
    putOnField,
    formState: { errors },
  } = useDeskForm<Values, z.output<typeof UidTransferInput>>(UidTransferInput, {
    defaultValues: { receive_uid: '', currency: 'USDT', amount: '' },
    at: AT,
  });
  if (review && write) return <ReviewStep review={review} write={write} onBack={() => setReview(null)} />;
  const submit = handleSubmit((input) => {
    const w: Write = { kind: 'uid_transfer', input };
    setWrite(w);
    reviewIt.mutate({ write: w }, { onSuccess: setReview, onError: putOnField });
  });
  return (
    <form className="form card" aria-label="New UID transfer" noValidate onSubmit={(e) => void submit(e)}>
      <h2>New UID transfer</h2>
      <Field label="Receiver's user id" error={fieldMessage(errors.receive_uid)}>
        <input autoComplete="off" inputMode="numeric" {...register('receive_uid')} />
      </Field>
      <Field label="Currency" error={fieldMessage(errors.currency)}>
        <input autoComplete="off" {...register('currency', { setValueAs: (v: string) => v.trim().toUpperCase() })} />
      </Field>
      <Field label="Amount" error={fieldMessage(errors.amount)}>
        <input autoComplete="off" inputMode="decimal" {...register('amount', { setValueAs: (v: string) => v.trim() })} />
      </Field>
      {reviewIt.isError && !onField(reviewIt.error) && <ErrorPanel error={reviewIt.error} />}
      <button className="primary" type="submit" disabled={reviewIt.isPending}>
        Review
      </button>
    </form>
  );
}
