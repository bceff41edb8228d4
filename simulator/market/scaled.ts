// Prices and amounts inside the book are integers: a price in ticks of the pair's `precision`, an amount in
// lots of its `amount_precision`, and price × amount in "notional units" (ticks × lots). They are JS
// numbers, so every product is checked against 2^53 where it is formed (guardSafe). Money an order
// accumulates (filled totals, fees at 3 more places, what it locks) is a bigint at the same scales, since
// a fee of a large quote amount can pass 2^53; the ledger keeps decimal strings.

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

const TEN = 10n;

/** 1250n at 2 places → "12.5", as fromScaled. */
export function bigText(n: bigint, places: number): string {
  const neg = n < 0n;
  let s = (neg ? -n : n).toString();
  if (places > 0) {
    if (s.length <= places) s = s.padStart(places + 1, '0');
    let end = s.length;
    while (end > s.length - places && s.charCodeAt(end - 1) === 48) end--;
    const int = s.slice(0, s.length - places);
    s = end === s.length - places ? int : `${int}.${s.slice(s.length - places, end)}`;
  }
  return neg && s !== '0' ? `-${s}` : s;
}

/** "12.5" at 2 places → 1250n; null when it is not a plain decimal or has more places than that. */
export function bigOf(s: string, places: number): bigint | null {
  if (!/^-?\d+(\.\d+)?$/.test(s)) return null;
  const dot = s.indexOf('.');
  if (dot < 0) return BigInt(s) * TEN ** BigInt(places);
  let frac = s.slice(dot + 1);
  let end = frac.length;
  while (end > 0 && frac.charCodeAt(end - 1) === 48) end--;
  if (end > places) return null;
  frac = frac.slice(0, end).padEnd(places, '0');
  const int = s.slice(0, dot);
  const n = BigInt(int.replace('-', '') + frac);
  return int.startsWith('-') ? -n : n;
}

/** 10^0 … 10^80: every balance an order changes needs a few, and each `**` is a new bigint. */
const POW10 = Array.from({ length: 81 }, (_, k) => TEN ** BigInt(k));

/** 10^k as a bigint, for moving an amount to more places. */
export function pow10(k: number): bigint {
  return POW10[k] ?? TEN ** BigInt(k);
}
