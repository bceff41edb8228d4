import { zodResolver } from '@hookform/resolvers/zod';
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { z } from 'zod';
import { UidTransferInput } from '../../../../shared/api/writes.ts';
import type { ChannelRequest, Review } from '../../../../shared/ipc.ts';
import { ErrorPanel } from '../../components/ErrorPanel.tsx';
import { Field } from '../../components/Field.tsx';
import { useDeskMutation } from '../../desk/hooks.ts';
import { ReviewStep } from './ReviewStep.tsx';

type Values = z.input<typeof UidTransferInput>;
type Write = ChannelRequest<'approvalsDraft'>['write'];

function sentence(m: string | undefined): string | undefined {
  return m ? `${m[0]!.toUpperCase()}${m.slice(1)}${/[.!?]$/.test(m) ? '' : '.'}` : undefined;
}

/** §4.2 POST /withdrawals/push: money leaving to another account, under the same policy. Checked by the contract's own schema. */
export function UidTransferForm() {
  const [write, setWrite] = useState<Write | null>(null);
  const [review, setReview] = useState<Review | null>(null);
  const reviewIt = useDeskMutation('approvalsReview');
  const {
    register,
    handleSubmit,
    formState: { errors },
  } = useForm<Values, unknown, z.output<typeof UidTransferInput>>({
    resolver: zodResolver(UidTransferInput),
    defaultValues: { receive_uid: '', currency: 'USDT', amount: '' },
  });
  if (review && write) return <ReviewStep review={review} write={write} onBack={() => setReview(null)} />;
  const submit = handleSubmit((input) => {
    const w: Write = { kind: 'uid_transfer', input };
    setWrite(w);
    reviewIt.mutate({ write: w }, { onSuccess: setReview });
  });
  return (
    <form className="form card" aria-label="New UID transfer" noValidate onSubmit={(e) => void submit(e)}>
      <h2>New UID transfer</h2>
      <Field label="Receiver's user id" error={sentence(errors.receive_uid?.message)}>
        <input autoComplete="off" inputMode="numeric" {...register('receive_uid')} />
      </Field>
      <Field label="Currency" error={sentence(errors.currency?.message)}>
        <input autoComplete="off" {...register('currency', { setValueAs: (v: string) => v.trim().toUpperCase() })} />
      </Field>
      <Field label="Amount" error={sentence(errors.amount?.message)}>
        <input autoComplete="off" inputMode="decimal" {...register('amount', { setValueAs: (v: string) => v.trim() })} />
      </Field>
      {reviewIt.isError && <ErrorPanel error={reviewIt.error} />}
      <button className="primary" type="submit" disabled={reviewIt.isPending}>
        Review
      </button>
    </form>
  );
}
