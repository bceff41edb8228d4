import { realTimer, sleep, type Timer } from './time.ts';

// On two cores, the history's background syncs (answers of a thousand records checked and written in
// this process) took the processor from both the operator's window and the core's answers to it: a
// Withdrawals filter made while they ran waited 30-80 ms for its answer where it takes 3 (docs/performance.md §Opening the desk:
// `npm run bench -- ui`, the core's thread runnable but not running for 20-57 ms of the filter's 60-95).
// Background requests therefore wait while the window is asking, as long as it asks, up to a bound, after
// which they go on for a while whatever the window does: an operator who never stops clicking still gets
// figures from the exchange.

/** The window is at work while it asked something within this long. */
export const WINDOW_QUIET_MS = 300;
/** The longest background requests are held back in one go. */
export const MAX_HOLD_MS = 2_000;
/** After a hold that reached its bound, background requests go on this long before they can be held again. */
export const OPEN_MS = 2_000;

export class WindowFirst {
  private lastCall = -Infinity;
  private holdingSince: number | null = null;
  private openUntil = -Infinity;

  constructor(private readonly timer: Timer = realTimer) {}

  /** The window asked something. */
  windowCalled(): void {
    this.lastCall = this.timer.now();
  }

  /** Settles once background work may go on: at once while the window is quiet. */
  async giveWay(): Promise<void> {
    for (;;) {
      const now = this.timer.now();
      if (now < this.openUntil) return;
      const quietAt = this.lastCall + WINDOW_QUIET_MS;
      if (now >= quietAt) {
        this.holdingSince = null;
        return;
      }
      this.holdingSince ??= now;
      const boundAt = this.holdingSince + MAX_HOLD_MS;
      if (now >= boundAt) {
        this.holdingSince = null;
        this.openUntil = now + OPEN_MS;
        return;
      }
      await sleep(this.timer, Math.min(quietAt, boundAt) - now);
    }
  }
}
