import { groupDigits } from '../../../../shared/digits.ts';

/** Figures are shown exactly as the core computed them (decimal strings), digits grouped. */
export const figure = (s: string) => groupDigits(s);

export const timeOf = (ms: number | null) => (ms === null ? '—' : new Date(ms).toLocaleString());

const two = (n: number) => String(n).padStart(2, '0');

/** "14:05" today, "2026-11-24 14:05" on another day (local time). */
export function clockOf(ms: number, now: number): string {
  const d = new Date(ms),
    n = new Date(now);
  const hm = `${two(d.getHours())}:${two(d.getMinutes())}`;
  return d.toDateString() === n.toDateString() ? hm : `${d.getFullYear()}-${two(d.getMonth() + 1)}-${two(d.getDate())} ${hm}`;
}
