import { groupDigits } from '../../../../shared/digits.ts';
import { dateTime } from '../../components/localTime.ts';

/** Figures are shown exactly as the core computed them (decimal strings), digits grouped. */
export const figure = (s: string) => groupDigits(s);

export const timeOf = (ms: number | null) => (ms === null ? '—' : dateTime(ms));
