// Prices and amounts inside the book are integers: a price in ticks of the pair's `precision`, an amount in
// lots of its `amount_precision`, and price × amount in "notional units" (ticks × lots). They are JS
// numbers, so every product is checked against 2^53 where it is formed (guardSafe); the ledger keeps
// decimal strings and never sees these integers.

const PLAIN = /^(0|[1-9]\d{0,29})(\.\d{1,30})?$/;

/** "12.5" at 2 places → 1250; null when the string is not a plain decimal or has more places. */
export function toScaled(s: string, places: number): number | null {
  if (!PLAIN.test(s)) return null;
  const dot = s.indexOf('.');
  const int = dot < 0 ? s : s.slice(0, dot);
  let frac = dot < 0 ? '' : s.slice(dot + 1).replace(/0+$/, '');
  if (frac.length > places) return null;
  frac = frac.padEnd(places, '0');
  const n = Number(int + frac);
  return Number.isSafeInteger(n) ? n : null;
}

/** 1250 at 2 places → "12.5" (no trailing zeros, no exponent). */
export function fromScaled(n: number, places: number): string {
  if (!Number.isSafeInteger(n)) throw new Error(`not a safe integer: ${n}`);
  const neg = n < 0;
  let s = String(neg ? -n : n);
  if (places > 0) {
    s = s.padStart(places + 1, '0');
    s = `${s.slice(0, -places)}.${s.slice(-places)}`.replace(/\.?0+$/, '');
  }
  return neg && s !== '0' ? `-${s}` : s;
}

/** a × b when it stays an exact integer; throws otherwise (callers check limits before the book runs). */
export function guardSafe(a: number, b: number): number {
  const p = a * b;
  if (!Number.isSafeInteger(p)) throw new RangeError(`${a} × ${b} passes 2^53`);
  return p;
}
