import { MAX_STATEMENT_DAYS } from '../../../../shared/statements.ts';

// A statement's period as the operator means it: days and months of the desk's own time zone (the
// machine's, which the desk shows every time in), sent to the core as the UTC instants they begin and end.

export type PeriodKind = 'day' | 'month' | 'custom';

export interface PeriodInput {
  kind: PeriodKind;
  /** "2026-11-30" (day), "2026-11" (month), or the first day of a custom range. */
  start: string;
  /** The last day of a custom range, included. */
  end: string;
}

export interface Period {
  from: number;
  to: number;
  /** "2026-11-01 00:00 to 2026-12-01 00:00 (Europe/Berlin)". */
  local: string;
  /** "2026-10-31T23:00:00Z to 2026-11-30T23:00:00Z". */
  utc: string;
}

const DAY = /^(\d{4})-(\d{2})-(\d{2})$/;
const MONTH = /^(\d{4})-(\d{2})$/;

/** The desk's time zone name, as the statement is labelled with it. */
export function deskTimeZone(): string {
  return Intl.DateTimeFormat().resolvedOptions().timeZone || 'UTC';
}

function day(text: string, what: string): Date {
  const m = DAY.exec(text);
  const d = m ? new Date(Number(m[1]), Number(m[2]) - 1, Number(m[3])) : null;
  if (!m || !d || d.getDate() !== Number(m[3]) || d.getMonth() !== Number(m[2]) - 1)
    throw new Error(`${what} must be a day like 2026-11-30`);
  return d;
}

const two = (n: number) => String(n).padStart(2, '0');
const localText = (d: Date) =>
  `${d.getFullYear()}-${two(d.getMonth() + 1)}-${two(d.getDate())} ${two(d.getHours())}:${two(d.getMinutes())}`;
const utcText = (ms: number) => `${new Date(ms).toISOString().slice(0, 19)}Z`;

/** The period's bounds, or an error naming the field that is wrong. */
export function periodOf(p: PeriodInput, timeZone: string): Period {
  let start: Date;
  let end: Date;
  if (p.kind === 'month') {
    const m = MONTH.exec(p.start);
    if (!m || Number(m[2]) < 1 || Number(m[2]) > 12) throw new Error('The month must be like 2026-11');
    start = new Date(Number(m[1]), Number(m[2]) - 1, 1);
    end = new Date(Number(m[1]), Number(m[2]), 1);
  } else {
    start = day(p.start, p.kind === 'day' ? 'The day' : 'The first day');
    const last = p.kind === 'day' ? start : day(p.end, 'The last day');
    if (last < start) throw new Error('The last day is before the first day');
    end = new Date(last.getFullYear(), last.getMonth(), last.getDate() + 1);
  }
  const from = start.getTime();
  const to = end.getTime();
  if (to - from > MAX_STATEMENT_DAYS * 86_400_000) throw new Error(`A statement covers at most ${MAX_STATEMENT_DAYS} days`);
  return { from, to, local: `${localText(start)} to ${localText(end)} (${timeZone})`, utc: `${utcText(from)} to ${utcText(to)}` };
}
