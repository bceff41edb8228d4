import { stringify } from 'csv-stringify/sync';
import { ACCOUNT_KINDS, ACCOUNT_KIND_NAMES } from '../../../shared/balances.ts';
import type { Viewed } from './matrix.ts';

// The sub-account matrix as a spreadsheet reads it: every filtered row, the amounts behind each value,
// and the column totals as the last line.

/**
 * Names come from the exchange, or from a relay between it and the desk: one starting with = + - @ would
 * run as a formula in a spreadsheet, so it is kept as text. (csv-stringify's escape_formulas would also
 * turn negative figures into text.)
 */
function asText(s: string): string {
  return /^[=+\-@\t\r]/.test(s) ? `'${s}` : s;
}

export function matrixCsv({ all, column_totals, grand_total }: Viewed, quote: string): string {
  const head = [
    'uid',
    'name',
    ...ACCOUNT_KINDS.map((k) => `${ACCOUNT_KIND_NAMES[k]} (${quote})`),
    `Total (${quote})`,
    // The exchange's ratios as sent (a spreadsheet computes with them); the unit is in the heading.
    'Cross margin risk (ratio, 1.1 = 110%)',
    'Isolated margin risk (lowest mmr, ratio)',
    ...ACCOUNT_KINDS.map((k) => `${ACCOUNT_KIND_NAMES[k]} amounts`),
  ];
  const body = all.map((r) => [
    r.uid,
    asText(r.name),
    ...ACCOUNT_KINDS.map((k) => r.cells[k].value),
    r.total,
    r.cross_risk ?? '',
    r.margin_risk ?? '',
    ...ACCOUNT_KINDS.map((k) =>
      Object.entries(r.cells[k].amounts)
        .map(([c, a]) => `${a} ${c}`)
        .join('; '),
    ),
  ]);
  const totals = ['', 'Total', ...ACCOUNT_KINDS.map((k) => column_totals[k]), grand_total, '', '', ...ACCOUNT_KINDS.map(() => '')];
  return stringify([head, ...body, totals]);
}
