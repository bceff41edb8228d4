import type { EventPayload } from '../../../shared/ipc.ts';
import type { BucketState } from './scheduler.ts';

/** The scheduler's busy buckets as the `rateLimits` event carries them to the renderer. */
export function rateLimitEvent(busy: readonly BucketState[]): EventPayload<'rateLimits'> {
  return {
    buckets: busy.map((b) => ({
      key: b.key,
      queued: b.queued,
      remaining: b.remaining,
      limit: b.limit,
      paused_until_ms: b.pausedUntil,
    })),
  };
}
