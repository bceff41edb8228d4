// Every wait in the client goes through a Timer, so tests drive time by hand instead of sleeping.
export interface Timer {
  /** Local epoch milliseconds. */
  now(): number;
  setTimeout(fn: () => void, ms: number): unknown;
  clearTimeout(handle: unknown): void;
}

export const realTimer: Timer = {
  now: () => Date.now(),
  setTimeout: (fn, ms) => {
    const h = setTimeout(fn, Math.max(0, ms));
    // A pending rate-limit wake-up must not keep a finished process alive.
    h.unref?.();
    return h;
  },
  clearTimeout: (h) => clearTimeout(h as ReturnType<typeof setTimeout>),
};

export function sleep(timer: Timer, ms: number): Promise<void> {
  return new Promise((resolve) => {
    timer.setTimeout(resolve, ms);
  });
}
