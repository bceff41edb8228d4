import { useState } from 'react';
import type { IntentView } from '../../../../shared/ipc.ts';
import { Dialog } from '../../components/Dialog.tsx';
import { ErrorPanel } from '../../components/ErrorPanel.tsx';
import { useDeskMutation } from '../../desk/hooks.ts';
import { KIND_NAMES } from './intentText.ts';

/** For a write the desk cannot prove: the operator checks the exchange and says what happened. */
export function SettleDialog({ intent, onDone }: { intent: IntentView; onDone: () => void }) {
  const settle = useDeskMutation('writeSettle');
  const [note, setNote] = useState('');
  const send = (outcome: 'done' | 'not_done') => settle.mutate({ id: intent.id, outcome, note }, { onSuccess: onDone });
  return (
    <Dialog label={`Settle ${intent.id}`} onClose={onDone}>
      <p>
        The desk cannot prove whether this {KIND_NAMES[intent.kind].toLowerCase()} happened{intent.reason ? ` (${intent.reason})` : ''}.
        Check the balances or records at the exchange, then say what you found. The desk will not send it again either way.
      </p>
      <label className="field">
        What you checked
        <input autoFocus value={note} onChange={(e) => setNote(e.target.value)} />
      </label>
      {settle.isError && <ErrorPanel error={settle.error} />}
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
