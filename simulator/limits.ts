// §8.2 rolling-window rate limits. A request is allowed when fewer than N requests of its bucket fall
// in the last W seconds. Each bucket keeps the times of its last N admitted requests in a ring, so a
// decision costs O(1) and the header's "remaining" a binary search, with no allocation per request.

export interface LimitDecision {
  allowed: boolean;
  limit: number;
  /** Requests still allowed in the window after this one. */
  remain: number;
  /** Unix milliseconds: when a refused request may go again; the current time when not refused. */
  resetMs: number;
}

class Ring {
  readonly times: Float64Array;
  /** Index of the oldest entry once the ring is full; the next slot to write. */
  head = 0;
  count = 0;
  constructor(
    readonly limit: number,
    readonly windowMs: number,
  ) {
    this.times = new Float64Array(limit);
  }

  private at(i: number): number {
    // i-th oldest of the stored entries
    const start = this.count < this.limit ? 0 : this.head;
    return this.times[(start + i) % this.limit]!;
  }

  /** How many stored entries are inside (now - window, now]. */
  inWindow(nowMs: number): number {
    const edge = nowMs - this.windowMs;
    let lo = 0,
      hi = this.count;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (this.at(mid) > edge) hi = mid;
      else lo = mid + 1;
    }
    return this.count - lo;
  }

  oldest(): number {
    return this.at(0);
  }

  newest(): number {
    return this.count === 0 ? -Infinity : this.times[(this.head + this.limit - 1) % this.limit]!;
  }

  push(nowMs: number): void {
    this.times[this.head] = nowMs;
    this.head = (this.head + 1) % this.limit;
    if (this.count < this.limit) this.count++;
  }
}

export class RateLimiter {
  private readonly rings = new Map<string, Ring>();
  private lastSweepMs = 0;

  /**
   * @param nowMs the time source in Unix milliseconds (the Sandbox's clock, so that the admin API can
   *   advance past a window; a fake one in unit tests)
   * @param enabled false: nothing is counted or refused, and the headers report the full budget
   */
  constructor(
    private readonly nowMs: () => number,
    public enabled = true,
  ) {}

  /** @param now the time of the request when the caller has read the clock already */
  check(bucket: string, limit: number, windowSec: number, now = this.nowMs()): LimitDecision {
    if (!this.enabled) return { allowed: true, limit, remain: limit, resetMs: Math.floor(now) };
    this.sweep(now);
    let ring = this.rings.get(bucket);
    if (!ring || ring.limit !== limit || ring.windowMs !== windowSec * 1000) {
      ring = new Ring(limit, windowSec * 1000);
      this.rings.set(bucket, ring);
    }
    const used = ring.inWindow(now);
    if (used >= limit) {
      // The oldest of the last N leaves the window first; the request may go once it has.
      return { allowed: false, limit, remain: 0, resetMs: Math.ceil(ring.oldest() + ring.windowMs) };
    }
    ring.push(now);
    return { allowed: true, limit, remain: limit - used - 1, resetMs: Math.floor(now) };
  }

  /** Forget every window (admin reset, tests). */
  reset(): void {
    this.rings.clear();
  }

  get bucketCount(): number {
    return this.rings.size;
  }

  // Buckets whose newest request is out of their window hold nothing that matters: drop them once a
  // minute so that many UIDs and IPs do not grow the process.
  private sweep(now: number): void {
    if (now - this.lastSweepMs < 60_000) return;
    this.lastSweepMs = now;
    for (const [k, ring] of this.rings) if (ring.newest() <= now - ring.windowMs) this.rings.delete(k);
  }
}
