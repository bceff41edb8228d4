import { groupDigits } from '../../../../shared/money.ts';

/** Figures are shown exactly as the core computed them (decimal strings), digits grouped. */
export const figure = (s: string) => groupDigits(s);

/** §2.8 risk ratios as the operator reads them: 1.1 is 110%, the liquidation line. */
export function percent(ratio: string | null): string {
  if (ratio === null) return '—';
  const [int, frac = ''] = ratio.split('.');
  const digits = `${int}${frac.padEnd(2, '0')}`.replace(/^0+(?=\d)/, '');
  const rest = frac.slice(2);
  return `${groupDigits(digits)}${rest ? `.${rest}` : ''}%`;
}

export const timeOf = (ms: number | null) => (ms === null ? '—' : new Date(ms).toLocaleString());
