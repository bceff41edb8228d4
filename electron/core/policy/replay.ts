import type { Policy, Verdict } from '../../../shared/api/policy.ts';
import type { PolicyReplay, ReplayDecision } from '../../../shared/api/replay.ts';
import { dec, Dec } from '../../../shared/money.ts';
import { OUTFLOW_KINDS } from './engine.ts';
import { judgeRows, weighed, type JudgedRow } from './recheck.ts';

// The replay itself, pure: the same engine and velocity rule the desk judges requests with, run over
// what happened, once under the proposal and once under the policy in force.

export interface ReplayItem {
  at: number;
  source: 'desk' | 'exchange';
  summary: string;
  row: JudgedRow;
}

const DAY = 86_400_000;
const MAX_CHANGED = 100;

const decisionOf = (v: Verdict): ReplayDecision => ({
  decision: v.decision,
  rule: v.rule,
  approvals: v.decision === 'require' ? v.approvals : 0,
});

/** Each item judged by both policies, oldest first, its 24-hour velocity counting the outflows before it. */
export function replayPolicy(proposed: Policy, inForce: Policy, items: readonly ReplayItem[], from: number, to: number): PolicyReplay {
  const sorted = [...items].sort((a, b) => a.at - b.at);
  const byRule = new Map<string | null, { allowed: number; held: number; blocked: number }>();
  for (const r of proposed.rules) byRule.set(r.id, { allowed: 0, held: 0, blocked: 0 });
  byRule.set(null, { allowed: 0, held: 0, blocked: 0 });
  const changed: PolicyReplay['changed'] = [];
  const past: { at: number; currency: string; amount: Dec }[] = [];
  for (const item of sorted) {
    const outflow = (currency: string) =>
      past.filter((p) => p.currency === currency && p.at > item.at - DAY).reduce((sum, p) => sum.plus(p.amount), new Dec(0));
    const after = decisionOf(judgeRows(proposed, [item.row], outflow));
    const before = decisionOf(judgeRows(inForce, [item.row], outflow));
    const tally = byRule.get(after.rule) ?? byRule.get(null)!;
    if (after.decision === 'allow') tally.allowed += 1;
    else if (after.decision === 'require') tally.held += 1;
    else tally.blocked += 1;
    if (after.decision !== before.decision || after.approvals !== before.approvals)
      changed.push({ at: item.at, source: item.source, summary: item.summary, before, after });
    if (OUTFLOW_KINDS.has(item.row.kind)) {
      const { currency, amount } = weighed(item.row);
      past.push({ at: item.at, currency, amount: dec(amount) });
    }
  }
  return {
    from,
    to,
    counted: {
      desk: sorted.filter((i) => i.source === 'desk').length,
      exchange: sorted.filter((i) => i.source === 'exchange').length,
    },
    rules: [...byRule.entries()].map(([rule, t]) => ({ rule, ...t })),
    changed: changed.reverse().slice(0, MAX_CHANGED),
    changed_total: changed.length,
  };
}
