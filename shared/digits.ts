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
