import type { Policy, Verdict, WriteFacts } from '../../../shared/api/policy.ts';
import { dec, Dec } from '../../../shared/money.ts';
import { strictest } from './batchVerdict.ts';
import { evaluate, OUTFLOW_KINDS } from './engine.ts';
import type { WriteKind } from '../../../shared/api/writes.ts';
import { isManagementKind } from '../../../shared/api/subAccounts.ts';
import { NEUTRAL } from './managementVerdict.ts';

// A request judged again under a policy other than the one its drafter saw, from what was signed with it
// (its rows' bodies and facts) and the outflow around it as the caller counts it. Pure, so that the
// governance fold (every desk, every replay) reaches the same quorum from the same records.

export interface JudgedRow {
  kind: string;
  body: Readonly<Record<string, string | number>>;
  facts: WriteFacts;
}

/** Spot writes are weighed by their notional in the quote currency, which only the facts carry. */
const SPOT_KINDS: ReadonlySet<string> = new Set(['spot_order', 'spot_cancel', 'spot_cancel_all']);

/** What the policy weighs a row by: for money moves, the signed body itself (the facts cannot understate it). */
export function weighed(row: JudgedRow): { currency: string; amount: string } {
  if (SPOT_KINDS.has(row.kind)) return { currency: row.facts.currency, amount: row.facts.amount };
  return { currency: String(row.body.currency), amount: String(row.body.amount) };
}

/**
 * The strictest row's verdict under `policy`, each row's 24-hour velocity being `outflow(currency)` plus
 * the outflow of the rows before it (as a batch is reviewed when drafted).
 */
export function judgeRows(policy: Policy, rows: readonly JudgedRow[], outflow: (currency: string) => Dec): Verdict {
  const leaving = new Map<string, Dec>();
  const verdicts = rows.map((row) => {
    // Sub-account management moves no money: its quorum is its own (governance/management.ts).
    if (isManagementKind(row.kind)) return NEUTRAL;
    const { currency, amount } = weighed(row);
    const before = leaving.get(currency) ?? new Dec(0);
    const v = evaluate(policy, {
      kind: row.kind as WriteKind,
      currency,
      amount,
      destination: row.facts.destination,
      usdt_price: row.facts.usdt_price,
      velocity_24h: outflow(currency).plus(before).toFixed(),
    });
    if (OUTFLOW_KINDS.has(row.kind)) leaving.set(currency, before.plus(dec(amount)));
    return v;
  });
  return strictest(verdicts);
}
