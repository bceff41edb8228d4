import type { Timer } from './time.ts';

/**
 * The exchange's clock as seen from here. §5.6 refuses a Timestamp more than 60 s from server time, so a
 * desktop clock that is minutes off would make every signed request fail; the offset is learned from
 * GET /spot/time and refreshed from every response's X-In-Time header.
 */
export class ServerClock {
  private offset = 0;
  private learned = false;

  constructor(private readonly timer: Pick<Timer, 'now'>) {}

  /** Server time minus local time, in ms. */
  get offsetMs(): number {
    return this.offset;
  }

  get synced(): boolean {
    return this.learned;
  }

  /** Epoch ms as the server's clock would read it now. */
  nowMs(): number {
    return this.timer.now() + this.offset;
  }

  /** The Timestamp header value (§5.6: Unix seconds). */
  timestamp(): string {
    return String(Math.floor(this.nowMs() / 1000));
  }

  /** A server epoch-ms instant on the local clock. */
  toLocal(serverMs: number): number {
    return serverMs - this.offset;
  }

  /**
   * One observation: the server read `serverMs` at some moment between `sentAt` and `receivedAt` (local ms).
   * The midpoint is off by at most half the round trip. Small disagreements are smoothed so that jittery
   * round trips do not make the offset wander; a large one (the server's clock jumped, or this is the first
   * sample, or `force`) is taken at once, because a stale offset is what produces REQUEST_EXPIRED.
   */
  observe(serverMs: number, sentAt: number, receivedAt: number, force = false): void {
    if (!Number.isFinite(serverMs) || serverMs <= 0) return;
    const estimate = serverMs - (sentAt + receivedAt) / 2;
    const halfRtt = Math.max(0, receivedAt - sentAt) / 2;
    if (force || !this.learned || Math.abs(estimate - this.offset) > Math.max(1000, 2 * halfRtt)) {
      this.offset = estimate;
    } else {
      this.offset += (estimate - this.offset) * 0.25;
    }
    this.learned = true;
  }
}

/** Epoch ms from a timestamp whose unit is not stated: seconds, milliseconds or microseconds, told apart by size. */
export function epochMsFromAnyUnit(raw: string | null | undefined): number | undefined {
  if (raw === null || raw === undefined || raw.trim() === '') return undefined;
  const v = Number(raw);
  if (!Number.isFinite(v) || v <= 0) return undefined;
  if (v >= 1e14) return v / 1000; // microseconds (X-In-Time, §4.3)
  if (v >= 1e11) return v; // milliseconds
  return v * 1000; // seconds
}
