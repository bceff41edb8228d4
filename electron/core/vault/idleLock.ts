import { VaultError } from './errors.ts';

// The vault locks itself after the operator's idle time. Timers can fire late (a laptop asleep), so the
// limit is also checked at every use of the keys, not only when the timer fires.

export interface VaultClock {
  now(): number;
  setTimeout(fn: () => void, ms: number): unknown;
  clearTimeout(handle: unknown): void;
}

export const realClock: VaultClock = {
  now: () => Date.now(),
  setTimeout: (fn, ms) => {
    const h = setTimeout(fn, ms);
    h.unref?.();
    return h;
  },
  clearTimeout: (h) => clearTimeout(h as ReturnType<typeof setTimeout>),
};

export class IdleLock {
  private idleMs: number | null = null;
  private timer: unknown = null;
  private lastActivity = 0;

  constructor(
    private readonly clock: VaultClock,
    /** Whether the vault's keys are in memory. */
    private readonly isOpen: () => boolean,
    private readonly lock: () => void,
  ) {}

  /** The vault opened, or the operator did something: the idle time counts from now. */
  restart(): void {
    this.lastActivity = this.clock.now();
    this.arm();
  }

  setMinutes(minutes: number): void {
    if (!Number.isFinite(minutes) || minutes <= 0)
      throw new VaultError('INVALID_INPUT', 'The idle time must be a positive number of minutes.');
    this.idleMs = Math.round(minutes * 60_000);
    this.arm();
  }

  expireIfIdle(): void {
    if (this.isOpen() && this.idleMs !== null && this.clock.now() - this.lastActivity >= this.idleMs) this.lock();
  }

  clear(): void {
    if (this.timer !== null) this.clock.clearTimeout(this.timer);
    this.timer = null;
  }

  private arm(): void {
    this.clear();
    if (!this.isOpen() || this.idleMs === null) return;
    const due = this.lastActivity + this.idleMs - this.clock.now();
    this.timer = this.clock.setTimeout(
      () => {
        this.timer = null;
        this.expireIfIdle();
        if (this.isOpen()) this.arm();
      },
      Math.max(0, due),
    );
  }
}
