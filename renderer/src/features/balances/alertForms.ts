import { z } from 'zod';
import { FloorInput, ThresholdInput } from '../../../../shared/balances.ts';
import { thresholdFromPercent } from '../../../../shared/risk.ts';

// A sub-account's alert settings as typed (an empty figure means "back to the default" or "remove"),
// turned into the contract's request and checked by its schema; the request's field names are the form's.

export interface ThresholdValues {
  risk_threshold: string;
}
export interface FloorValues {
  currency: string;
  floor: string;
}

/** The threshold is typed as a percentage, like the risk it is compared with; the request carries its ratio. */
export const thresholdFormSchema = (uid: string) =>
  z
    .object({ risk_threshold: z.string() })
    .transform((v, ctx) => {
      if (!v.risk_threshold.trim()) return { uid, risk_threshold: null };
      const t = thresholdFromPercent(v.risk_threshold);
      if ('ratio' in t) return { uid, risk_threshold: t.ratio };
      ctx.addIssue({ code: 'custom', message: t.problem, path: ['risk_threshold'] });
      return z.NEVER;
    })
    .pipe(ThresholdInput);

export const floorFormSchema = (uid: string) =>
  z
    .object({ currency: z.string(), floor: z.string() })
    .transform((v) => ({ uid, currency: v.currency.trim().toUpperCase(), floor: v.floor.trim() || null }))
    .pipe(FloorInput);
