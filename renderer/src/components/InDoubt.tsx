import { doubtWords } from '../../../shared/doubtWords.ts';
import { timeOfDay } from './localTime.ts';
import { useNow } from './useNow.ts';

/**
 * "Outcome not known yet", with when the doubt ends and the time left, for a write whose answer did not
 * come (docs/failure-modes.md §In doubt); nothing for any other state. Every page that lists writes uses it.
 */
export function InDoubt({ state, until }: { state: string | null | undefined; until: number | null | undefined }) {
  const now = useNow(1000);
  if (state !== 'unconfirmed') return null;
  return (
    <div className="small field-error" role="status" data-testid="in-doubt">
      {doubtWords(until ?? undefined, now, timeOfDay)}
    </div>
  );
}
