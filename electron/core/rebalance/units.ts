// The planner counts in 1e-8 units as BigInt: §8.5 caps transfer amounts at 8 decimals, so every amount the
// plan can send is a whole number of units, and 400 accounts plan in well under a millisecond.

export const SCALE = 100_000_000n;
const BALANCE_RE = /^(0|[1-9]\d{0,19})(\.\d{1,8})?$/;

/** A balance or target as units; `what` names it in the error (a bad input changes nothing). */
export function toUnits(s: string, what: string): bigint {
  if (typeof s !== 'string' || !BALANCE_RE.test(s)) {
    throw new Error(`${what} must be a plain decimal number of at most 8 decimal places, not ${JSON.stringify(s)}`);
  }
  const [int = '0', frac = ''] = s.split('.');
  return BigInt(int) * SCALE + BigInt(frac.padEnd(8, '0'));
}

export function fromUnits(u: bigint): string {
  const neg = u < 0n;
  const a = neg ? -u : u;
  const int = (a / SCALE).toString();
  const frac = (a % SCALE).toString().padStart(8, '0').replace(/0+$/, '');
  return `${neg ? '-' : ''}${int}${frac ? `.${frac}` : ''}`;
}
