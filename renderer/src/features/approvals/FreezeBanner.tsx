import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { ErrorPanel } from '../../components/ErrorPanel.tsx';
import { deskApi } from '../../desk/desk.ts';
import { useDeskMutation } from '../../hooks/useDeskMutation.ts';
import { useDeskQuery } from '../../hooks/useDeskQuery.ts';

/** Approvals and writes change in the core: their queries are refreshed when it says so. */
function useApprovalsEvents(): void {
  const qc = useQueryClient();
  useEffect(() => {
    const desk = deskApi();
    if (!desk) return;
    const a = desk.on('approvals', () => void qc.invalidateQueries({ queryKey: ['approvalsState'] }));
    const b = desk.on('intent', () => void qc.invalidateQueries({ queryKey: ['withdrawalsCancellable'] }));
    return () => {
      a();
      b();
    };
  }, [qc]);
}

export const FREEZE_SHORTCUT = 'Ctrl+Shift+F';

/**
 * Shown on every page: the freeze when there is one, and the Freeze button with its shortcut. Any
 * operator may freeze without a quorum; the signature is given in the confirmation window.
 */
export function FreezeBanner() {
  useApprovalsEvents();
  const state = useDeskQuery('approvalsState', {});
  const freeze = useDeskMutation('approvalsFreeze');
  const [asked, setAsked] = useState(false);
  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      if (e.ctrlKey && e.shiftKey && e.key.toLowerCase() === 'f') {
        e.preventDefault();
        freeze.mutate({ reason: 'freeze shortcut' }, { onSuccess: () => setAsked(true) });
      }
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [freeze]);
  const frozen = state.data?.frozen;
  return (
    <div className={frozen ? 'error-panel' : 'row'} data-testid="freeze-banner">
      {frozen
        ? <span><strong>Frozen</strong> by {frozen.by} at {new Date(frozen.at).toLocaleString()}{frozen.reason ? ` (${frozen.reason})` : ''}: no write leaves until a quorum unfreezes (Approvals page).</span>
        : <>
          <button type="button" className="danger" title={`Freeze (${FREEZE_SHORTCUT})`} onClick={() => freeze.mutate({ reason: '' }, { onSuccess: () => setAsked(true) })}>Freeze</button>
          {asked && <span className="small muted">Sign the freeze in the confirmation window.</span>}
        </>}
      {freeze.isError && <ErrorPanel error={freeze.error} />}
    </div>
  );
}
