import { ErrorPanel } from '../../components/ErrorPanel.tsx';
import { ageOf } from '../../components/LastKnownNote.tsx';
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
          {/* The lists are the desk's cache, painted before any read of the exchange: how old they are, in words. */}
          <span data-testid="history-age">
            ·{' '}
            {s.synced_to
              ? `read up to ${new Date(s.synced_to * 1000).toISOString().slice(0, 19).replace('T', ' ')} UTC (${ageOf(s.synced_to * 1000, Date.now())})${s.syncing ? ' · reading what is new…' : ''}`
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
