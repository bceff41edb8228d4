import type { EventPayload } from '../../../shared/ipc.ts';
import type { BucketState } from './scheduler.ts';

/** The scheduler's buckets in use as the `rateLimits` event (and the `deskStatus` answer) carry them to the renderer. */
export function rateLimitEvent(busy: readonly BucketState[]): EventPayload<'rateLimits'> {
  return {
    buckets: busy.map((b) => ({
      key: b.key,
      queued: b.queued,
      in_flight: b.inFlight,
      used: b.used,
      remaining: b.remaining,
      limit: b.limit,
      window_sec: b.windowSec,
      paused_until_ms: b.pausedUntil,
      pause_reason: b.pauseReason,
    })),
  };
}
