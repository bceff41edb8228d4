import { useState } from 'react';
import { Dialog } from '../../components/Dialog.tsx';
import { ErrorPanel } from '../../components/ErrorPanel.tsx';
import { useDeskMutation, useDeskQuery } from '../../desk/hooks.ts';

/**
 * What the desk found when it opened this profile's journal: a journal that failed verification (writes
 * stop until the operator archives it) or a torn last line it cut (nothing was sent on its strength).
 * The `journal` event refreshes it (shared/ipcStale.ts).
 */
export function JournalNotice() {
  const status = useDeskQuery('journalStatus', {});
  const archive = useDeskMutation('journalArchive');
  const acknowledge = useDeskMutation('journalAcknowledgeRecovery');
  const [confirming, setConfirming] = useState(false);

  const s = status.data;
  if (archive.data) {
    return (
      <div className="notice" role="status">
        <p>
          The damaged journal was archived as <span className="mono">{archive.data.archived_to}</span>. A new journal has started;{' '}
          {archive.data.carried_over} unfinished {archive.data.carried_over === 1 ? 'write was' : 'writes were'} carried over as “Needs your
          attention”: check each at the exchange, then settle it. None of them will be sent.
        </p>
        <button type="button" onClick={() => archive.reset()}>
          Close
        </button>
      </div>
    );
  }
  if (s?.state === 'damaged' && s.damage) {
    return (
      <div className="error-panel" role="alert" aria-labelledby="journal-damaged-title">
        <h2 id="journal-damaged-title">This profile’s journal failed verification</h2>
        <p>{s.damage.reason}</p>
        {s.damage.missing > 0 && (
          <p>
            {s.damage.missing} {s.damage.missing === 1 ? 'entry is' : 'entries are'} missing.
          </p>
        )}
        <p>
          <strong>Writes on this profile are stopped: nothing will be sent.</strong> Balances and other reads go on.
        </p>
        <p>
          Someone or something changed the desk’s data folder, or the vault was reset since the journal was written. To go on, archive the
          damaged journal (it is kept whole, as evidence) and start a new one. Every write it left unfinished comes over as “Needs your
          attention”, to be settled against the exchange’s records; none is ever sent again.
        </p>
        <button type="button" onClick={() => setConfirming(true)}>
          Archive it and start a new journal…
        </button>
        {confirming && (
          <Dialog role="alertdialog" label="Confirm archiving the journal" onClose={() => setConfirming(false)}>
            <p>Archive the damaged journal and start a new one?</p>
            {archive.isError && <ErrorPanel error={archive.error} />}
            <div className="actions">
              <button
                type="button"
                className="primary"
                disabled={archive.isPending}
                onClick={() => archive.mutate({}, { onSuccess: () => setConfirming(false) })}
              >
                Archive and start a new journal
              </button>
              <button type="button" onClick={() => setConfirming(false)}>
                Not now
              </button>
            </div>
          </Dialog>
        )}
      </div>
    );
  }
  if (s?.state === 'ok' && s.recovered) {
    return (
      <div className="notice" role="status">
        <p>
          When the desk opened this profile’s journal, its last line was cut short ({s.recovered.bytes} bytes, line {s.recovered.line}): the
          desk had stopped while writing it. That line was never acted on, so nothing was sent on its strength. Its bytes are kept in{' '}
          <span className="mono">{s.recovered.saved_to}</span>.
        </p>
        <button type="button" onClick={() => acknowledge.mutate({})}>
          I have read this
        </button>
        {acknowledge.isError && <ErrorPanel error={acknowledge.error} />}
      </div>
    );
  }
  return null;
}
