// Loaded by UnsentPanel only when there is something to acknowledge: it checks with zod (docs/performance.md §Long lists).
import { useId } from 'react';
import { channels } from '../../../../shared/ipc.ts';
import type { UnsentItem } from '../../../../shared/history.ts';
import { fieldMessage, useDeskForm } from '../../components/deskForm.ts';
import { ErrorPanel } from '../../components/ErrorPanel.tsx';
import { useDeskMutation } from '../../desk/hooks.ts';

/** The operator's note under the contract's own rule for it. */
const NoteSchema = channels.unsentAcknowledge.request.pick({ note: true });

/** The operator's acknowledgement of one outflow the desk did not send, with a note under the contract's rule. */
export function Acknowledge({ item }: { item: UnsentItem }) {
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
