import type { WithdrawalChain, WithdrawalLimits } from './api/records.ts';
import { amountProblem, dec, fmt } from './money.ts';

// What a withdrawal's amount must satisfy before anything is drafted: §8.5 precision, the chain's own
// `decimal` (§2.2), the §2.7 minimum, per-withdrawal maximum and daily remaining, and the fee (fixed plus
// percent for that chain) with the amount that arrives. The withdraw form says it as the operator types;
// the core checks every row of a payout file with the same function. The exchange checks again.

export interface Limits {
  chainDecimals: number;
  min: string;
  eachMax: string;
  dayRemaining: string;
  feeFix: string;
  /** "0.1%" as §2.7 writes it. */
  feePercent: string;
}

export type AmountCheck = { ok: true; fee: string; arrives: string } | { ok: false; problem: string };

/** The limits of one chain of a currency, from its §2.7 record and its §2.2 chain record. */
export function limitsOf(status: WithdrawalLimits, chain: WithdrawalChain): Limits {
  return {
    chainDecimals: Number(chain.decimal),
    min: status.withdraw_amount_mini,
    eachMax: status.withdraw_eachtime_limit,
    dayRemaining: status.withdraw_day_limit_remain,
    feeFix: status.withdraw_fix_on_chains?.[chain.chain] ?? status.withdraw_fix ?? '0',
    feePercent: status.withdraw_percent_on_chains?.[chain.chain] ?? status.withdraw_percent ?? '0%',
  };
}

const on = (v: number | string | undefined): boolean => String(v) === '1';

/** Why a chain takes no withdrawal now (§2.2 flags), or null. */
export function chainProblem(c: WithdrawalChain): string | null {
  if (on(c.is_disabled)) return `the ${c.chain} chain is disabled (is_disabled)`;
  if (on(c.is_withdraw_disabled)) return `withdrawals on the ${c.chain} chain are disabled (is_withdraw_disabled)`;
  return null;
}

/** Whether a chain needs a memo or tag with the address (§2.2 is_tag). */
export const needsMemo = (c: WithdrawalChain): boolean => on(c.is_tag);

export function checkAmount(amount: string, l: Limits): AmountCheck {
  const basic = amountProblem(amount, Math.min(8, l.chainDecimals));
  if (basic)
    return {
      ok: false,
      problem: `The amount ${basic}${l.chainDecimals < 8 && /decimal places/.test(basic) ? " (this chain's precision)" : ''}.`,
    };
  const a = dec(amount);
  if (a.lt(dec(l.min))) return { ok: false, problem: `The minimum withdrawal is ${l.min}.` };
  if (dec(l.eachMax).gt(0) && a.gt(dec(l.eachMax))) return { ok: false, problem: `The maximum per withdrawal is ${l.eachMax}.` };
  if (a.gt(dec(l.dayRemaining))) return { ok: false, problem: `Only ${l.dayRemaining} remains of today's withdrawal limit.` };
  const pct = dec(l.feePercent.replace('%', '') || '0');
  const fee = dec(l.feeFix).plus(a.mul(pct).div(100));
  const arrives = a.minus(fee);
  if (arrives.lte(0)) return { ok: false, problem: `The fee (${fmt(fee)}) takes the whole amount.` };
  return { ok: true, fee: fmt(fee), arrives: fmt(arrives) };
}
