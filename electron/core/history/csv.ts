import { stringify } from 'csv-stringify/sync';
import type { HistoryKind, HistoryQuery } from '../../../shared/history.ts';
import type { HistoryDb } from '../cache/historyDb.ts';
import { TABLES } from '../cache/tables.ts';

// CSV of a whole filtered list (not the visible page), wire names as the header. A cell that a
// spreadsheet would run as a formula (an address or memo written by whoever sent the record) is
// prefixed with a quote, so opening the file never runs what the exchange's data says.

const FORMULA = /^[=+\-@\t\r]/;
const NUMBER = /^-?\d+(\.\d+)?$/;

export function spreadsheetSafe(cell: string): string {
  return FORMULA.test(cell) && !NUMBER.test(cell) ? `'${cell}` : cell;
}

export function exportCsv(db: HistoryDb, kind: HistoryKind, query: HistoryQuery): { csv: string; rows: number } {
  const spec = TABLES[kind];
  const columns = [
    ...(spec.keyField ? [] : ['key']),
    ...spec.fields,
    ...(kind === 'withdrawals' || kind === 'uid_transfers' ? ['not_sent_by_this_desk'] : []),
  ];
  const records: string[][] = [];
  for (const r of db.iterate(kind, query.filters, query.sort)) {
    const cells = [...(spec.keyField ? [] : [r.key]), ...spec.fields.map((f) => r.wire[f] ?? '')];
    if (columns.at(-1) === 'not_sent_by_this_desk') cells.push(r.unsent ? r.unsent.state : '');
    records.push(cells.map(spreadsheetSafe));
  }
  return { csv: stringify(records, { header: true, columns }), rows: records.length };
}
