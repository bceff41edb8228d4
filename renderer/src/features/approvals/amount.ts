import { amountProblem, dec, fmt } from '../../../../shared/money.ts';

// What the withdraw form says about an amount before anything is drafted: §8.5 precision, the chain's
// own `decimal` (§2.2), the §2.7 minimum, per-withdrawal maximum and daily remaining, and the fee
// (fixed plus percent for that chain) with the amount that arrives. The exchange checks again.

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

export function checkAmount(amount: string, l: Limits): AmountCheck {
  const basic = amountProblem(amount, Math.min(8, l.chainDecimals));
  if (basic) return { ok: false, problem: `The amount ${basic}${l.chainDecimals < 8 && /decimal places/.test(basic) ? ' (this chain\'s precision)' : ''}.` };
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
