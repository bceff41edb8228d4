import { labelSentence } from '../../../shared/api/labels.ts';
import type { IntentView } from '../../../shared/ipc.ts';

// Where a batch row's write stands, in the words every batch page uses (rebalance legs, incident steps,
// small-balance conversions, payouts map from these). One place reads the journal's states, and the
// settlement's wording (written by intents.ts) is read only here.

export type IntentOutcome = 'pending' | 'running' | 'done' | 'failed' | 'skipped' | 'needs_attention';

export const SETTLED_DONE = 'settled as done';

/** An operator settled the write by hand as having landed at the exchange. */
export function settledAsDone(v: IntentView): boolean {
  return v.state === 'settled' && (v.reason ?? '').startsWith(SETTLED_DONE);
}

/** No intent yet is "pending"; the reason is the exchange's label in words for a refusal, else the journal's. */
export function intentOutcome(v: IntentView | undefined): { state: IntentOutcome; reason: string } {
  if (!v) return { state: 'pending', reason: '' };
  const reason = v.state === 'refused' && v.label ? labelSentence(v.label) : (v.reason ?? '');
  switch (v.state) {
    case 'done':
    case 'accepted':
      return { state: 'done', reason };
    case 'refused':
      return { state: 'failed', reason };
    case 'cancelled':
      return { state: 'skipped', reason };
    case 'needs_attention':
      return { state: 'needs_attention', reason };
    case 'settled':
      return { state: settledAsDone(v) ? 'done' : 'failed', reason };
    default:
      return { state: 'running', reason };
  }
}
