// The batch's report, one row per planned transfer, and its CSV export (RFC 4180, CRLF lines; cells a
// spreadsheet would run as formulas are quoted: the reason carries the exchange's words).

import { stringify } from 'csv-stringify/sync';
import type { ReportRow } from '../../../shared/rebalance.ts';
import { spreadsheetSafe } from '../history/csv.ts';

export type { ReportRow };
export type RowState = ReportRow['state'];

const COLUMNS: (keyof ReportRow)[] = ['transfer', 'from', 'to', 'amount', 'currency', 'state', 'reason'];

export function reportCsv(rows: readonly ReportRow[]): string {
  const records = rows.map((r) => COLUMNS.map((c) => spreadsheetSafe(String(r[c]))));
  return stringify(records, { header: true, columns: COLUMNS, record_delimiter: 'windows' });
}

export function tally(rows: readonly ReportRow[]): Record<RowState, number> {
  const t: Record<RowState, number> = { done: 0, failed: 0, skipped: 0, needs_attention: 0, pending: 0 };
  for (const r of rows) t[r.state]++;
  return t;
}
