// The lock screen's countdown after failed passphrases. The core says how long to wait when it answers
// (vault status unlock_wait_ms); the screen counts down from the moment that answer arrived.

/** Whole seconds left, rounded up (0 when the wait is over). */
export function secondsLeft(waitMs: number, receivedAt: number, now: number): number {
  return Math.max(0, Math.ceil((receivedAt + waitMs - now) / 1000));
}

export function waitSentence(seconds: number): string | null {
  if (seconds <= 0) return null;
  if (seconds < 60) return `Too many wrong passphrases. Wait ${seconds} s before the next try.`;
  const minutes = Math.floor(seconds / 60);
  const rest = seconds % 60;
  return `Too many wrong passphrases. Wait ${minutes} min${rest ? ` ${rest} s` : ''} before the next try.`;
}
