import { createHash } from 'node:crypto';
import { CsvError, parse } from 'csv-parse/sync';
import {
  MAX_PAYOUT_FILE_BYTES,
  MAX_PAYOUT_ROWS,
  PAYOUT_COLUMNS,
  REQUIRED_PAYOUT_COLUMNS,
  type PayoutField,
} from '../../../shared/payouts.ts';

// A payout file as the core reads it: the exact bytes (their SHA-256 is what the batch records and what
// `sha256sum` prints for the file on disk), UTF-8 strictly, then csv-parse. The header names the columns
// in any order; a column the desk does not know is refused rather than ignored, so that a typo
// ("ammount") never sends a row without the value the operator thought was there.

export type RawRow = { row: number; line: number; cells: Record<PayoutField, string>; fieldCount: number };

export interface ParsedFile {
  sha256: string;
  bytes: number;
  /** Problems with the file as a whole: then `rows` is empty. */
  problems: { line: number | null; message: string }[];
  rows: RawRow[];
  /** How many fields the header has (a row with another count is refused). */
  columns: number;
}

const fail = (sha256: string, bytes: number, message: string, line: number | null = null): ParsedFile => ({
  sha256,
  bytes,
  problems: [{ line, message }],
  rows: [],
  columns: 0,
});

/** Base64 as the window sends it; anything that does not decode back to itself is refused. */
export function decodeBase64(b64: string): Buffer | null {
  const buf = Buffer.from(b64, 'base64');
  return buf.toString('base64') === b64 ? buf : null;
}

export function parsePayoutFile(bytes: Buffer): ParsedFile {
  const sha256 = createHash('sha256').update(bytes).digest('hex');
  const n = bytes.length;
  if (n > MAX_PAYOUT_FILE_BYTES)
    return fail(sha256, n, `The file is ${n} bytes; a payout file may hold at most ${MAX_PAYOUT_FILE_BYTES} bytes.`);
  let text: string;
  try {
    text = new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    return fail(sha256, n, 'The file is not UTF-8 text. Save it from the spreadsheet as "CSV UTF-8".');
  }
  let records: { record: string[]; info: { lines: number; raw?: string } }[];
  try {
    records = parse(text, {
      bom: true,
      relax_column_count: true,
      skip_empty_lines: true,
      trim: true,
      info: true,
      raw: true,
    }) as unknown as typeof records;
  } catch (e) {
    if (e instanceof CsvError) {
      const lines = (e as unknown as { lines?: unknown }).lines;
      const line = typeof lines === 'number' ? lines : null;
      return fail(sha256, n, `The file is not valid CSV${line ? ` at line ${line}` : ''}: ${e.message.replace(/^[^:]*: /, '')}.`, line);
    }
    throw e;
  }
  const [head, ...body] = records;
  if (!head) return fail(sha256, n, `The file is empty. Its first line names the columns: ${PAYOUT_COLUMNS.join(', ')}.`);
  const names = head.record.map((c) => c.toLowerCase());
  const unknown = names.filter((c) => !(PAYOUT_COLUMNS as readonly string[]).includes(c));
  if (unknown.length) {
    return fail(
      sha256,
      n,
      `The header names ${unknown.map((c) => `"${c}"`).join(', ')}, which ${unknown.length > 1 ? 'are not columns' : 'is not a column'} of a payout file (${PAYOUT_COLUMNS.join(', ')}).`,
      1,
    );
  }
  const twice = names.filter((c, i) => names.indexOf(c) !== i);
  if (twice.length) return fail(sha256, n, `The header names "${twice[0]}" twice.`, 1);
  const missing = REQUIRED_PAYOUT_COLUMNS.filter((c) => !names.includes(c));
  if (missing.length)
    return fail(sha256, n, `The header has no ${missing.map((c) => `"${c}"`).join(', ')} column${missing.length > 1 ? 's' : ''}.`, 1);
  if (body.length === 0) return fail(sha256, n, 'The file has a header and no payout under it.');
  if (body.length > MAX_PAYOUT_ROWS)
    return fail(sha256, n, `The file has ${body.length} payouts; one batch holds at most ${MAX_PAYOUT_ROWS}. Split the file.`);
  const rows = body.map(({ record, info }, i): RawRow => {
    const cells = Object.fromEntries(PAYOUT_COLUMNS.map((c) => [c, record[names.indexOf(c)] ?? ''])) as Record<PayoutField, string>;
    // info.lines is where the record ends; a quoted field may span lines, and raw starts with any blank lines skipped before it.
    const spans = (
      info.raw
        ?.replace(/^(?:[ \t]*\r?\n)+/, '')
        .replace(/\r?\n$/, '')
        .match(/\n/g) ?? []
    ).length;
    return { row: i + 1, line: info.lines - spans, cells, fieldCount: record.length };
  });
  return { sha256, bytes: n, problems: [], rows, columns: names.length };
}
