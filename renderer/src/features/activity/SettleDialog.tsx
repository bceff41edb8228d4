import { channels, type IntentView } from '../../../../shared/ipc.ts';
import { fieldMessage, useDeskForm } from '../../components/deskForm.ts';
import { Dialog } from '../../components/Dialog.tsx';
import { ErrorPanel } from '../../components/ErrorPanel.tsx';
import { Field } from '../../components/Field.tsx';
import { useDeskMutation } from '../../desk/hooks.ts';
import { KIND_NAMES } from './intentText.ts';

/** What the operator says they checked, under the contract's own rule for the settle request's note. */
const NoteSchema = channels.writeSettle.request.pick({ note: true });

/** For a write the desk cannot prove: the operator checks the exchange and says what happened. */
export function SettleDialog({ intent, onDone }: { intent: IntentView; onDone: () => void }) {
  const settle = useDeskMutation('writeSettle');
  const {
    register,
    handleSubmit,
    watch,
    onField,
    putOnField,
    formState: { errors },
  } = useDeskForm(NoteSchema, { defaultValues: { note: '' } });
  const note = watch('note');
  const send = (outcome: 'done' | 'not_done') =>
    void handleSubmit((v) => settle.mutate({ id: intent.id, outcome, note: v.note }, { onSuccess: onDone, onError: putOnField }))();
  return (
    <Dialog label={`Settle ${intent.id}`} onClose={onDone}>
      <p>
        The desk cannot prove whether this {KIND_NAMES[intent.kind].toLowerCase()} happened{intent.reason ? ` (${intent.reason})` : ''}.
        Check the balances or records at the exchange, then say what you found. The desk will not send it again either way.
      </p>
      <Field label="What you checked" error={fieldMessage(errors.note)}>
        <input autoFocus {...register('note')} />
      </Field>
      {settle.isError && !onField(settle.error) && <ErrorPanel error={settle.error} />}
      <div className="actions">
        <button type="button" disabled={!note.trim() || settle.isPending} onClick={() => send('done')}>
          It happened
        </button>
        <button type="button" disabled={!note.trim() || settle.isPending} onClick={() => send('not_done')}>
          It did not happen
        </button>
        <button type="button" onClick={onDone}>
          Not now
        </button>
      </div>
    </Dialog>
  );
}
