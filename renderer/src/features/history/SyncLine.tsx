import { ErrorPanel } from '../../components/ErrorPanel.tsx';
import { RawDetails } from '../../components/RawDetails.tsx';
import { useDeskMutation } from '../../desk/hooks.ts';
import { useHistoryStatus } from './queries.ts';

/** How fresh the cache is, how many withdrawals are still moving, and a Refresh that reads what is new now. */
export function SyncLine() {
  const status = useHistoryStatus();
  const sync = useDeskMutation('historySync');
  const s = status.data;
  return (
    <div className="row small muted sync-line">
      {s && (
        <>
          <span data-testid="in-flight">{s.in_flight} in flight</span>
          <span>· {s.deposits_pending} deposits pending</span>
          <span>
            ·{' '}
            {s.synced_to
              ? `read up to ${new Date(s.synced_to * 1000).toISOString().slice(0, 19).replace('T', ' ')} UTC`
              : 'first read in progress'}
          </span>
          {s.last_error && (
            <span className="field-error">
              · last read failed: {s.last_error}
              <RawDetails lines={[s.last_error_detail]} />
            </span>
          )}
        </>
      )}
      <button type="button" className="small" disabled={sync.isPending} onClick={() => sync.mutate({})}>
        {sync.isPending ? 'Reading…' : 'Refresh'}
      </button>
      {sync.isError && <ErrorPanel error={sync.error} />}
    </div>
  );
}
