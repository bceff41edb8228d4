// The batch's report, one row per planned transfer, and its CSV export (RFC 4180 quoting).

import type { ReportRow } from '../../../shared/rebalance.ts';

export type { ReportRow };
export type RowState = ReportRow['state'];

const COLUMNS: (keyof ReportRow)[] = ['transfer', 'from', 'to', 'amount', 'currency', 'state', 'reason'];

function cell(v: string | number): string {
  const s = String(v);
  // A leading = + - @ would run as a formula in a spreadsheet: the reason carries the exchange's words.
  const safe = /^[=+\-@\t\r]/.test(s) ? `'${s}` : s;
  return /[",\r\n]/.test(safe) ? `"${safe.replace(/"/g, '""')}"` : safe;
}

export function reportCsv(rows: readonly ReportRow[]): string {
  return [COLUMNS.join(','), ...rows.map((r) => COLUMNS.map((c) => cell(r[c])).join(','))].join('\r\n') + '\r\n';
}

export function tally(rows: readonly ReportRow[]): Record<RowState, number> {
  const t: Record<RowState, number> = { done: 0, failed: 0, skipped: 0, needs_attention: 0, pending: 0 };
  for (const r of rows) t[r.state]++;
  return t;
}
