import { ENTRY_TYPE_NAMES } from '../../../../shared/journal.ts';
import { useDeskQuery } from '../../desk/hooks.ts';
import { dateTime } from '../../components/localTime.ts';

/** One intent from its draft to where it stands now, oldest first, across both journals. */
export function IntentTrail({ intent }: { intent: string }) {
  const trail = useDeskQuery('journalEntries', { intent, limit: 500 });
  const steps = [...(trail.data?.items ?? [])].reverse();
  if (steps.length === 0) return null;
  const lastStatus = [...steps]
    .reverse()
    .find((e) => e.type === 'result' || e.type === 'status' || e.type === 'settled' || e.type === 'cancelled' || e.type === 'rejection');
  return (
    <section aria-label={`Intent ${intent}`} className="notice" data-testid="intent-trail">
      <h2>
        Intent <span className="mono">{intent}</span>
        {lastStatus && (
          <>
            : {ENTRY_TYPE_NAMES[lastStatus.type]} {lastStatus.summary}
          </>
        )}
      </h2>
      <ol>
        {steps.map((e) => (
          <li key={`${e.journal}:${e.seq}`} className="small">
            {dateTime(e.at)} · {ENTRY_TYPE_NAMES[e.type] ?? e.type}
            {e.operators.length > 0 && <> by {e.operators.join(', ')}</>}
            {e.summary && <> · {e.summary}</>}
          </li>
        ))}
      </ol>
    </section>
  );
}
