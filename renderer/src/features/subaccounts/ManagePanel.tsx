import { ErrorPanel } from '../../components/ErrorPanel.tsx';
import { useDeskQuery } from '../../desk/hooks.ts';
import { incidentHref } from './route.ts';
import { KeysPanel } from './KeysPanel.tsx';
import { LockControl } from './LockControl.tsx';

/** A sub-account's page: its lock state with Lock or Unlock, the incident page, and its keys. */
export function ManagePanel({ uid }: { uid: string }) {
  const managed = useDeskQuery('subAccountsManaged', {});
  const me = managed.data?.find((a) => a.user_id === uid);
  return (
    <section className="panel" aria-label="Management">
      <h2>Management</h2>
      {managed.isError && <ErrorPanel error={managed.error} onRetry={() => void managed.refetch()} />}
      {me && (
        <p data-testid="lock-state">
          {me.locked ? <strong className="badge bad">Locked</strong> : 'Not locked.'} <LockControl uid={uid} locked={me.locked} />
        </p>
      )}
      <p>
        <a href={incidentHref(uid)}>Incident page…</a>
      </p>
      <KeysPanel uid={uid} />
    </section>
  );
}
