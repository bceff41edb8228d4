import { Dec, fmt } from '../../shared/money.ts';
import { bigText, pow10 } from './scaled.ts';

// The sum of two decimal strings as the ledger writes it (fmt of a decimal.js sum), without decimal.js:
// SQLite calls it for every balance an order changes (funds.ts), where decimal.js cost more than the
// statement. decimal.js works to 40 significant digits, rounding down; a sum longer than that, or an
// input that is not a plain decimal, goes through decimal.js, so the result is always the same.

const PLAIN = /^-?\d{1,40}(\.\d{1,40})?$/;
const PRECISION = 40;

function digitsOf(s: string): { n: bigint; places: number } {
  const dot = s.indexOf('.');
  if (dot < 0) return { n: BigInt(s), places: 0 };
  const neg = s.charCodeAt(0) === 45;
  const n = BigInt(s.slice(neg ? 1 : 0, dot) + s.slice(dot + 1));
  return { n: neg ? -n : n, places: s.length - dot - 1 };
}

/** Significant digits of a plain decimal string: from the first non-zero digit to the last one. */
function significant(s: string): number {
  let first = 0;
  while (first < s.length && (s[first] === '-' || s[first] === '0' || s[first] === '.')) first++;
  let count = 0;
  for (let i = first; i < s.length; i++) if (s[i] !== '.') count++;
  return count;
}

export function addDecimalText(a: string, b: string): string {
  if (!PLAIN.test(a) || !PLAIN.test(b)) return fmt(new Dec(a).plus(b));
  const x = digitsOf(a),
    y = digitsOf(b);
  const places = x.places > y.places ? x.places : y.places;
  const sum = x.n * (places > x.places ? pow10(places - x.places) : 1n) + y.n * (places > y.places ? pow10(places - y.places) : 1n);
  const out = bigText(sum, places);
  return significant(out) > PRECISION ? fmt(new Dec(a).plus(b)) : out;
}
