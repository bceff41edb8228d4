import { z } from 'zod';
import { FloorInput, ThresholdInput } from '../../../../shared/balances.ts';

// A sub-account's alert settings as typed (an empty figure means "back to the default" or "remove"),
// turned into the contract's request and checked by its schema; the request's field names are the form's.

export interface ThresholdValues {
  risk_threshold: string;
}
export interface FloorValues {
  currency: string;
  floor: string;
}

export const thresholdFormSchema = (uid: string) =>
  z
    .object({ risk_threshold: z.string() })
    .transform((v) => ({ uid, risk_threshold: v.risk_threshold.trim() || null }))
    .pipe(ThresholdInput);

export const floorFormSchema = (uid: string) =>
  z
    .object({ currency: z.string(), floor: z.string() })
    .transform((v) => ({ uid, currency: v.currency.trim().toUpperCase(), floor: v.floor.trim() || null }))
    .pipe(FloorInput);
