import Decimal from 'decimal.js';

// Amounts travel as decimal strings and are computed with decimal.js; a JS number never holds money.
export const Dec = Decimal.clone({ precision: 40, rounding: Decimal.ROUND_DOWN });
export type Dec = Decimal;

const DECIMAL_RE = /^-?(0|[1-9]\d*)(\.\d+)?$/;

export function isDecimalString(s: string): boolean {
  return DECIMAL_RE.test(s);
}

export function dec(s: string): Decimal {
  if (!isDecimalString(s)) throw new Error(`not a decimal amount: ${JSON.stringify(s)}`);
  return new Dec(s);
}

/** Plain decimal string without exponent and without trailing zeros ("1.50000000" -> "1.5"). */
export function fmt(d: Decimal, places?: number): string {
  const v = places === undefined ? d : d.toDecimalPlaces(places, Decimal.ROUND_DOWN);
  const s = v.toFixed();
  return s === '-0' ? '0' : s;
}

export function decimalPlaces(s: string): number {
  const i = s.indexOf('.');
  return i < 0 ? 0 : s.length - i - 1;
}

/** §8.5: transfer and withdrawal amounts have at most 8 decimal places and are above 0. */
export const MAX_AMOUNT_DECIMALS = 8;
/**
 * The spec sets no ceiling; 20 integer digits (10^20) is beyond any balance and keeps every amount the
 * desk journals, signs and compares small (an amount of 900,000 digits was once accepted and journaled).
 */
export const MAX_AMOUNT_INTEGER_DIGITS = 20;

export function amountProblem(s: string, maxDecimals = MAX_AMOUNT_DECIMALS): string | null {
  if (typeof s !== 'string') return 'must be a decimal number string';
  // Lengths first, before any pattern or arithmetic runs over a huge input.
  const point = s.indexOf('.');
  const intDigits = point < 0 ? s.length : point;
  if (intDigits > MAX_AMOUNT_INTEGER_DIGITS) return `has more than ${MAX_AMOUNT_INTEGER_DIGITS} digits before the decimal point`;
  if (point >= 0 && s.length - point - 1 > maxDecimals) return `has more than ${maxDecimals} decimal places`;
  if (!/^(0|[1-9]\d*)(\.\d+)?$/.test(s)) return 'must be a plain decimal number such as 12.5';
  if (new Dec(s).lte(0)) return 'must be above 0';
  return null;
}
