import { useNow } from '../../components/useNow.ts';
import type { FiguresSource } from '../../../../shared/balances.ts';
import { ageOf } from '../../components/LastKnownNote.tsx';
import { timeOf } from './format.ts';
import { clockOf } from '../../components/localTime.ts';

// Where the figures on a balances page come from, in words (the age as the Overview's LastKnownNote says it). Figures from the desk's cache (an earlier
// run's last load, shown at once on start) say so with their age until the exchange's arrive: an
// operator must never take them for live ones.

export function FiguresAge({
  fetchedAt,
  source,
  error,
  testid,
}: {
  fetchedAt: number | null;
  source: FiguresSource | null;
  error: string | null;
  testid: string;
}) {
  const now = useNow(15_000);
  if (source !== 'cache' || fetchedAt === null)
    return (
      <span className="muted small" data-testid={testid} data-source={source ?? 'none'}>
        Fetched {timeOf(fetchedAt)}
      </span>
    );
  return (
    <span className="cached-note small" role="status" data-testid={testid} data-source="cache">
      Last known figures from {clockOf(fetchedAt, now)} ({ageOf(fetchedAt, now)}) · {error ? `not refreshed: ${error}` : 'refreshing…'}
    </span>
  );
}
