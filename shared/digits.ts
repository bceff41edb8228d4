// Display of decimal strings, apart from shared/money.ts so that a page that only shows figures loads no
// arithmetic and no schema library before its first paint (docs/performance.md §Opening the desk).

/** Groups the integer digits of a decimal string for display ("1234567.5" -> "1,234,567.5"); the digits stay exact. */
export function groupDigits(s: string): string {
  const neg = s.startsWith('-');
  const body = neg ? s.slice(1) : s;
  const [int, frac] = body.split('.');
  const grouped = int!.replace(/\B(?=(\d{3})+(?!\d))/g, ',');
  return `${neg ? '-' : ''}${grouped}${frac !== undefined ? `.${frac}` : ''}`;
}

const UNITS = [
  { exp: 12, suffix: 'T' },
  { exp: 9, suffix: 'B' },
  { exp: 6, suffix: 'M' },
  { exp: 3, suffix: 'K' },
] as const;

/**
 * A decimal string in compact units for a chart's axis ("3992605" -> "3.99M", "1250" -> "1.25K"), rounded
 * half up to two decimals of its unit by integer arithmetic; under a thousand, grouped as it is.
 */
export function compactAmount(s: string): string {
  if (!/^-?\d+(\.\d+)?$/.test(s)) throw new Error(`compactAmount: "${s}" is not a decimal number`);
  const neg = s.startsWith('-');
  const int = (neg ? s.slice(1) : s).split('.')[0]!.replace(/^0+(?=\d)/, '');
  let i = UNITS.findIndex((u) => int.length > u.exp);
  if (i === -1) return groupDigits(s);
  const unit = (k: number) => 10n ** BigInt(UNITS[k]!.exp - 2);
  let hundredths = (BigInt(int) * 2n + unit(i)) / (2n * unit(i));
  // 999,995 rounds to 1000.00K: that is 1M.
  if (hundredths >= 100_000n && i > 0) {
    i -= 1;
    hundredths = (BigInt(int) * 2n + unit(i)) / (2n * unit(i));
  }
  const whole = groupDigits(String(hundredths / 100n));
  const cents = String(hundredths % 100n)
    .padStart(2, '0')
    .replace(/0+$/, '');
  return `${neg ? '-' : ''}${whole}${cents ? `.${cents}` : ''}${UNITS[i]!.suffix}`;
}
