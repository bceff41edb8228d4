import { useDeskEvent } from '../hooks/useDeskEvents.ts';

/** Busy request buckets: the operator sees why a refresh waits instead of wondering. */
export function RateLimitBar() {
  const state = useDeskEvent('rateLimits');
  const busy = state?.buckets ?? [];
  if (!busy.length) return null;
  return (
    <div className="statusbar" role="status" data-testid="rate-limits">
      {busy.map((b) => (
        <span key={b.key} className="bucket">
          {b.key.replace(/^[^:]*:/, '')}: {b.queued} waiting, {Math.max(0, b.remaining)}/{b.limit} left
          {b.paused_until_ms !== null && ` · paused until ${new Date(b.paused_until_ms).toLocaleTimeString()}`}
        </span>
      ))}
    </div>
  );
}
