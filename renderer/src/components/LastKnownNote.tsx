import { useNow } from './useNow.ts';

// No Intl here: the first Intl formatter a page builds (Date's toLocaleString, Intl.RelativeTimeFormat)
// loads the locale's data, 20 to 45 ms in a CPU profile of the window's start, inside the frame that
// paints the first figures (issue 25). The words are English as the rest of the desk.

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

const two = (n: number) => String(n).padStart(2, '0');

/** "2026-11-24 14:05", local time. */
export function dateTimeOf(at: number): string {
  const d = new Date(at);
  return `${d.getFullYear()}-${two(d.getMonth() + 1)}-${two(d.getDate())} ${two(d.getHours())}:${two(d.getMinutes())}`;
}

/**
 * Said beside figures painted from the desk's cache, so that nobody takes them for the exchange's answer
 * of now: when they were read, how long ago, and whether the exchange is being asked or did not answer.
 */
export function LastKnownNote({ at, failed, testId }: { at: number; failed: boolean; testId?: string }) {
  const now = useNow(30_000);
  return (
    <p className="last-known-note small" role="status" data-testid={testId}>
      Last known figures, read {dateTimeOf(at)} ({ageOf(at, now)}) ·{' '}
      {failed ? 'the exchange did not answer; they may be out of date' : 'asking the exchange…'}
    </p>
  );
}
