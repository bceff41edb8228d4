import type { BatchReview, BatchTotal } from '../../../shared/api/batch.ts';
import type { Verdict } from '../../../shared/api/policy.ts';
import { dec, Dec, fmt } from '../../../shared/money.ts';

// What a batch as a whole needs: its strictest row's verdict. A batch is approved once, so it needs what
// its most demanding row would need alone; a blocked row blocks the batch (it is left out, or nothing goes).

const RANK: Record<Verdict['decision'], number> = { allow: 0, require: 1, block: 2 };

export function strictest(verdicts: readonly Verdict[]): Verdict {
  let worst = verdicts[0]!;
  for (const v of verdicts.slice(1)) {
    if (RANK[v.decision] > RANK[worst.decision] || (v.decision === worst.decision && v.approvals > worst.approvals)) worst = v;
  }
  // The drafter counts only when every row that needs approvals lets them.
  const drafter = verdicts.every((v) => v.decision !== 'require' || v.drafter_may_approve);
  return { ...worst, drafter_may_approve: worst.decision === 'require' && drafter };
}

/** The amount per currency, and the fee where the caller knows it (payouts: the core's own fee check). */
export function totalsOf(rows: BatchReview['rows'], fees?: ReadonlyMap<string, string>): BatchTotal[] {
  const sums = new Map<string, Dec>();
  for (const r of rows) {
    // Rows that move no money (a cancellation, a sub-account lock) add nothing.
    if (r.body.amount === undefined) continue;
    const c = String(r.body.currency);
    sums.set(c, (sums.get(c) ?? new Dec(0)).plus(dec(String(r.body.amount))));
  }
  return [...sums]
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([currency, amount]) => ({
      currency,
      amount: fmt(amount),
      ...(fees?.has(currency) ? { fee: fees.get(currency)! } : {}),
    }));
}
