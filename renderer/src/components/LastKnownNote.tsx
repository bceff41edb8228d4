import { useNow } from './useNow.ts';

const UNITS: Array<[Intl.RelativeTimeFormatUnit, number]> = [
  ['day', 86_400_000],
  ['hour', 3_600_000],
  ['minute', 60_000],
];

/** "3 hours ago", "just now": how old figures are, in words. */
export function ageOf(at: number, now: number): string {
  const ms = Math.max(0, now - at);
  const fmt = new Intl.RelativeTimeFormat('en', { numeric: 'always' });
  for (const [unit, size] of UNITS) if (ms >= size) return fmt.format(-Math.floor(ms / size), unit);
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
      Last known figures, read {new Date(at).toLocaleString()} ({ageOf(at, now)}) ·{' '}
      {failed ? 'the exchange did not answer; they may be out of date' : 'asking the exchange…'}
    </p>
  );
}
