import { CancelledWithdrawal } from '../../../shared/api/records.ts';
import { isFinalWithdrawalStatus } from '../../../shared/api/statuses.ts';
import type { IntentView } from '../journal/intents.ts';
import type { IntentBody } from '../journal/records.ts';
import type { Found, WriteClient } from './lookups.ts';
import { classifyFailure } from './outcome.ts';

// The last line behind the doubt rule (doubt.ts): a write the exchange holds more than once under its own
// id. A withdrawal's later copies are cancelled with DELETE /withdrawals/{id} (§4.2) while their status
// allows it; the exchange answers INVALID_WITHDRAW_CANCEL_STATUS once it does not (§3.1). Each copy is
// journaled once, with what the desk did, so that pages and notifications name it. Other kinds have no
// cancellation through the API that could not itself move money, so their copies are left to an operator.

/** Journals and cancels `v`'s extra copies that the journal does not already name; answers how many are left. */
export async function undoCopies(client: WriteClient, v: IntentView, l: Found, record: (body: IntentBody) => void): Promise<number> {
  const known = new Map((v.duplicates ?? []).map((d) => [d.exchange_id, d]));
  if (v.kind !== 'withdrawal' || !l.records) return Math.max(0, l.copies - 1);
  let left = 0;
  const undone = (status: string | undefined): boolean => status === 'CANCEL' || status === 'REJECT';
  for (const copy of l.records.slice(1)) {
    const seen = known.get(copy.id);
    if (seen) {
      if (seen.action === 'left' && !undone(copy.status)) left++;
      continue;
    }
    const note = (action: 'cancel_asked' | 'left', status: string, reason: string): void =>
      record({ type: 'duplicate', intent: v.id, exchange_id: copy.id, action, status, reason: reason.slice(0, 500) });
    if (isFinalWithdrawalStatus(copy.status)) {
      if (!undone(copy.status)) left++;
      note('left', copy.status, `a second withdrawal under id ${v.client_id}, already ${copy.status}: nothing the desk can cancel`);
      continue;
    }
    try {
      const answer = await client.request(
        { method: 'DELETE', path: `/withdrawals/${encodeURIComponent(copy.id)}`, priority: 'action' },
        CancelledWithdrawal,
      );
      note(
        'cancel_asked',
        answer.status,
        `a second withdrawal under id ${v.client_id} (status ${copy.status}): the desk asked the exchange to cancel it`,
      );
    } catch (e) {
      const f = classifyFailure(e);
      left++;
      note(
        'left',
        copy.status,
        `a second withdrawal under id ${v.client_id} (status ${copy.status}); its cancellation failed: ${f.kind === 'refused' ? `${f.label}: ${f.message}` : f.reason}`,
      );
    }
  }
  return left;
}
