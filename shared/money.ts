import { z } from 'zod';
import { amountProblem, isDecimalString } from './decimal.ts';

// The arithmetic lives in shared/decimal.ts and the display in shared/digits.ts, without zod, for the
// pages that compute or show figures before their first paint (docs/performance.md §Opening the desk); the wire's schemas live here.
export * from './decimal.ts';
export { groupDigits } from './digits.ts';

/** A decimal string as sent on the wire (may be signed, any precision). */
export const DecimalString = z.string().refine(isDecimalString, { message: 'must be a decimal number string' });

/** An amount to move: §8.5 rules. */
export const AmountString = z.string().superRefine((s, ctx) => {
  const p = amountProblem(s);
  if (p) ctx.addIssue({ code: 'custom', message: `amount ${p}` });
});
