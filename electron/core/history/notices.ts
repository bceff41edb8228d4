import { isFinalWithdrawalStatus } from '../../../shared/api/statuses.ts';
import { statusWords } from '../../../shared/api/statusWords.ts';
import type { Change, StoredRow } from '../cache/historyDb.ts';
import type { IntentView } from '../journal/intents.ts';

// What the operator is told when a withdrawal or deposit moves. A record the cache had not seen may
// arrive already final (a withdrawal that went from REQUEST to DONE between two reads: the desk's own
// sends often do), so "moved" means a new status for a known record, or a final one for a new record;
// a new record in a live status is told when it moves. The desk's own withdrawals are told first and
// say so, naming the amount and destination.

export interface Notice {
  title: string;
  body: string;
  tag: string;
}

export function movementNotices(
  changes: readonly Change[],
  row: (c: Change) => StoredRow | null,
  intents: readonly IntentView[],
): Notice[] {
  const own = new Set(intents.filter((v) => v.kind === 'withdrawal' && v.client_id).map((v) => v.client_id!));
  const told: Array<Notice & { own: boolean }> = [];
  for (const c of changes) {
    if (c.kind !== 'withdrawals' && c.kind !== 'deposits') continue;
    const arrivedFinal = c.from === null && c.kind === 'withdrawals' && isFinalWithdrawalStatus(c.to);
    if (c.from === null && !arrivedFinal) continue;
    const was = c.from === null ? '' : ` (was ${c.from})`;
    if (c.kind === 'deposits') {
      told.push({
        own: false,
        title: `Deposit ${c.key}: ${c.to}`,
        body: `${statusWords('deposit', c.to)}${was}`,
        tag: `deposits:${c.key}`,
      });
      continue;
    }
    const w = row(c)?.wire;
    const mine = w?.withdraw_order_id !== undefined && own.has(w.withdraw_order_id);
    const what = w ? ` of ${w.amount} ${w.currency} to ${w.address}` : '';
    told.push({
      own: mine,
      title: `${mine ? "This desk's withdrawal" : 'Withdrawal'} ${c.key}: ${c.to}`,
      body: `${statusWords('withdrawal', c.to)}${was}${what ? `: the withdrawal${what}` : ''}`,
      tag: `withdrawals:${c.key}`,
    });
  }
  return [...told.filter((n) => n.own), ...told.filter((n) => !n.own)].map(({ own: _own, ...n }) => n);
}
