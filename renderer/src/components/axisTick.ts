import { compactAmount } from '../../../shared/digits.ts';

/**
 * A money axis's tick. Recharts needs numbers for its pixel scale, so the ticks it picks are numbers; each
 * is written back as a decimal string (no exponent) and shown in compact units from that string, so that
 * no money figure shown is the result of float arithmetic.
 */
export function axisTick(v: number): string {
  return compactAmount(Number.isInteger(v) ? v.toFixed(0) : v.toFixed(8).replace(/0+$/, ''));
}
