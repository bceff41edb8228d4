import { dateTimeToMinute } from './localTime.ts';
import { useNow } from './useNow.ts';

// No Intl here (Intl.RelativeTimeFormat; dates: localTime.ts): its first formatter in a page loads the
// locale's data, 20 to 45 ms in a CPU profile of the window's start, inside the frame that paints the first
// figures (docs/performance.md §Opening the desk). The words are English as the rest of the desk.

const UNITS: Array<[string, number]> = [
  ['day', 86_400_000],
  ['hour', 3_600_000],
  ['minute', 60_000],
];

/** "3 hours ago", "1 day ago": how old figures are, in words. */
export function ageOf(at: number, now: number): string {
  const ms = Math.max(0, now - at);
  for (const [unit, size] of UNITS) {
    const n = Math.floor(ms / size);
    if (n >= 1) return `${n} ${unit}${n === 1 ? '' : 's'} ago`;
  }
  return 'less than a minute ago';
}

/**
 * Said beside figures painted from the desk's cache, so that nobody takes them for the exchange's answer
 * of now: when they were read, how long ago, and whether the exchange is being asked or did not answer.
 */
export function LastKnownNote({ at, failed, testId }: { at: number; failed: boolean; testId?: string }) {
  const now = useNow(30_000);
  return (
    <p className="last-known-note small" role="status" data-testid={testId}>
      Last known figures, read {dateTimeToMinute(at)} ({ageOf(at, now)}) ·{' '}
      {failed ? 'the exchange did not answer; they may be out of date' : 'asking the exchange…'}
    </p>
  );
}
