import { ErrorPanel } from '../../components/ErrorPanel.tsx';
import { useDeskMutation } from '../../desk/hooks.ts';
import { RequestOutcome } from '../approvals/index.ts';

// "Lock sub-account" and "Unlock": drafted like any write, signed in the confirmation window. A lock is
// containment (any operator, one confirmation, like a freeze); an unlock gives access back and needs the
// change quorum. Nothing leaves before the signatures: the core journals it and sends it exactly once.

export function LockControl({ uid, locked, compact = false }: { uid: string; locked: boolean; compact?: boolean }) {
  const draft = useDeskMutation('approvalsDraft');
  const kind = locked ? 'sub_account_unlock' : 'sub_account_lock';
  const name = locked ? 'Unlock' : 'Lock sub-account';
  if (draft.data) {
    return compact ? (
      <span className="small" role="status">
        {draft.data.title}: sign it in the confirmation window.
      </span>
    ) : (
      <RequestOutcome requestRef={draft.data.ref} title={draft.data.title} onAgain={() => draft.reset()} />
    );
  }
  return (
    <span className="lock-control">
      <button
        type="button"
        className={locked ? undefined : 'danger'}
        aria-label={`${name} ${uid}`}
        disabled={draft.isPending}
        onClick={() => draft.mutate({ write: { kind, input: { user_id: uid } } })}
      >
        {name}
      </button>
      {!compact && (
        <span className="small muted">
          {locked
            ? ' Unlocking gives its keys and transfers back: it needs the change quorum, like an operator change.'
            : ' Any operator may lock, like a freeze: one confirmation in the confirmation window.'}
        </span>
      )}
      {draft.isError && <ErrorPanel error={draft.error} />}
    </span>
  );
}
