import { useEffect, useState } from 'react';
import { ErrorPanel } from '../../components/ErrorPanel.tsx';
import { useDeskMutation, useDeskQuery } from '../../desk/hooks.ts';
import { dateTime } from '../../components/localTime.ts';

export const FREEZE_SHORTCUT = 'Ctrl+Shift+F';

/**
 * Shown on every page: the freeze when there is one, and the Freeze button with its shortcut. Any
 * operator may freeze without a quorum; the signature is given in the confirmation window.
 */
export function FreezeBanner() {
  const state = useDeskQuery('approvalsState', {});
  const freeze = useDeskMutation('approvalsFreeze');
  const [asked, setAsked] = useState(false);
  // An auditor (a desk or profile that signs nothing) is offered no freeze: the core would refuse it.
  const readOnly = state.data?.read_only !== undefined;
  useEffect(() => {
    if (readOnly) return;
    const onKey = (e: KeyboardEvent) => {
      if (e.ctrlKey && e.shiftKey && e.key.toLowerCase() === 'f') {
        e.preventDefault();
        freeze.mutate({ reason: 'freeze shortcut' }, { onSuccess: () => setAsked(true) });
      }
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [freeze, readOnly]);
  const frozen = state.data?.frozen;
  return (
    <div className={frozen ? 'error-panel' : 'row'} data-testid="freeze-banner">
      {frozen ? (
        <span>
          <strong>Frozen</strong> by {frozen.by} at {dateTime(frozen.at)}
          {frozen.reason ? ` (${frozen.reason})` : ''}: no write leaves until a quorum unfreezes (Approvals page).
        </span>
      ) : readOnly ? null : (
        <>
          <button
            type="button"
            className="danger"
            title={`Freeze (${FREEZE_SHORTCUT})`}
            onClick={() => freeze.mutate({ reason: '' }, { onSuccess: () => setAsked(true) })}
          >
            Freeze
          </button>
          {asked && <span className="small muted">Sign the freeze in the confirmation window.</span>}
        </>
      )}
      {freeze.isError && <ErrorPanel error={freeze.error} />}
    </div>
  );
}
