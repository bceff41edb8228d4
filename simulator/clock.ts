/**
 * The Sandbox's clock: real time plus an offset that the admin API may advance, so that tests can
 * move withdrawals through time and skew the server clock without waiting. It reads the monotonic
 * high-resolution timer from the process's start, so X-In-Time and X-Out-Time have real microseconds.
 */
export class Clock {
  private offsetSec = 0;

  /** Seconds since the epoch, with decimals. */
  now(): number {
    return (performance.timeOrigin + performance.now()) / 1000 + this.offsetSec;
  }

  advance(seconds: number): void {
    this.offsetSec += seconds;
  }

  get offset(): number {
    return this.offsetSec;
  }
}
