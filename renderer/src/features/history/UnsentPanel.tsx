import { useId } from 'react';
import { channels } from '../../../../shared/ipc.ts';
import { groupDigits } from '../../../../shared/money.ts';
import type { UnsentItem } from '../../../../shared/history.ts';
import { fieldMessage, useDeskForm } from '../../components/deskForm.ts';
import { ErrorPanel } from '../../components/ErrorPanel.tsx';
import { useDeskMutation, useDeskQuery } from '../../desk/hooks.ts';
import { LongValue } from '../../components/LongValue.tsx';

/** The operator's note under the contract's own rule for it. */
const NoteSchema = channels.unsentAcknowledge.request.pick({ note: true });

function Acknowledge({ item }: { item: UnsentItem }) {
  const ack = useDeskMutation('unsentAcknowledge');
  const {
    register,
    handleSubmit,
    watch,
    onField,
    putOnField,
    formState: { errors },
  } = useDeskForm(NoteSchema, { defaultValues: { note: '' } });
  const id = useId();
  const problem = fieldMessage(errors.note);
  const submit = handleSubmit((v) => ack.mutate({ kind: item.kind, id: item.id, note: v.note }, { onError: putOnField }));
  return (
    <form className="row" noValidate aria-label={`Acknowledge ${item.id}`} onSubmit={(e) => void submit(e)}>
      <input
        aria-label={`Note for ${item.id}`}
        placeholder="what you found (who sent it, why)"
        size={40}
        {...register('note')}
        aria-invalid={problem ? true : undefined}
        aria-describedby={problem ? id : undefined}
      />
      <button type="submit" disabled={!watch('note').trim() || ack.isPending}>
        Acknowledge
      </button>
      {problem && (
        <span id={id} className="field-error">
          {problem}
        </span>
      )}
      {ack.isError && !onField(ack.error) && <ErrorPanel error={ack.error} />}
    </form>
  );
}

/**
 * Outflows dated after the desk began watching this profile that its journal does not account for:
 * kept at the top of the page until an operator says what they were.
 */
export function UnsentPanel() {
  const q = useDeskQuery('unsentList', {});
  if (q.isError) return <ErrorPanel error={q.error} />;
  if (!q.data?.length) return null;
  return (
    <section className="card unsent" aria-label="Not sent by this desk">
      <h2>Not sent by this desk ({q.data.length})</h2>
      <p className="muted small">
        These left the account after this desk began watching it, and no entry of its journal sent them. If nobody on your team sent them
        from elsewhere, the key may be in someone else's hands: revoke it at the exchange.
      </p>
      {q.data.map((item) => (
        <div key={`${item.kind}:${item.id}`} className="unsent-item" data-unsent={item.id}>
          <div>
            <strong>
              {item.kind === 'withdrawals' ? 'Withdrawal' : 'UID transfer'} {item.id}
            </strong>
            : {groupDigits(item.amount)} {item.currency} to <LongValue text={item.to} copy="destination" />{' '}
            <span className="muted">
              ({item.status}, {new Date(Number(item.timestamp) * 1000).toISOString().replace('T', ' ').slice(0, 19)} UTC)
            </span>
          </div>
          <Acknowledge item={item} />
        </div>
      ))}
    </section>
  );
}
