import PDFDocument from 'pdfkit';
import type Decimal from 'decimal.js';
import { Dec, fmt } from '../../../shared/money.ts';
import type { Movement, Statement } from '../../../shared/statements.ts';

// The statement as a PDF an auditor can read on paper (pdfkit, its standard Helvetica: no font file to
// ship): the figures and what does not add up on the first page, then the movements, each page with the
// in and out of the movements it counts and its number of the whole.

const MARGIN = 40;
const SIZE = 8;
/** Room kept under the table on every page for its totals and its number. */
const FOOTER = 34;
const COLUMNS = [
  { title: 'When', width: 82 },
  { title: 'Type', width: 92 },
  { title: 'Amount', width: 72, right: true },
  { title: 'Fee', width: 40, right: true },
  { title: 'Balance after', width: 78, right: true },
  { title: 'Exchange id', width: 70 },
  { title: 'Desk id · approved by', width: 81 },
] as const;

/** "2026-12-03 11:51:42" in the statement's time zone (the Swedish locale writes ISO-like dates). */
const localTime = (ms: number, timeZone: string): string =>
  new Intl.DateTimeFormat('sv-SE', { timeZone, dateStyle: 'short', timeStyle: 'medium' }).format(ms);

function cells(m: Movement, timeZone: string): string[] {
  return [
    localTime(m.at, timeZone),
    m.counted ? m.type : `${m.type} (not explained)`,
    m.amount,
    m.fee,
    m.balance_after,
    m.exchange_id || '—',
    [m.desk_id || '—', m.approved_by].filter(Boolean).join(' · '),
  ];
}

/** The statement `s`, issued at `issuedAt` by `by`, as PDF bytes. */
export function statementPdf(s: Statement, issuedAt: number, by: string): Promise<Buffer> {
  const doc = new PDFDocument({
    size: 'A4',
    margin: MARGIN,
    bufferPages: true,
    info: { Title: `Statement of ${s.account_label}, ${s.currency}`, Author: by, CreationDate: new Date(issuedAt) },
  });
  const chunks: Buffer[] = [];
  doc.on('data', (c: Buffer) => chunks.push(c));
  const done = new Promise<Buffer>((resolve, reject) => {
    doc.on('end', () => resolve(Buffer.concat(chunks)));
    doc.on('error', reject);
  });

  const width = doc.page.width - 2 * MARGIN;
  const bottom = () => doc.page.height - MARGIN - FOOTER;
  doc.font('Helvetica-Bold').fontSize(14).text(`Statement: ${s.account_label} · ${s.currency}`);
  doc.font('Helvetica').fontSize(9).moveDown(0.3);
  doc.text(`${localTime(s.from, s.time_zone)} to ${localTime(s.to, s.time_zone)} (${s.time_zone})`);
  doc.text(`UTC ${new Date(s.from).toISOString()} to ${new Date(s.to).toISOString()}`);
  doc.text(`Issued ${new Date(issuedAt).toISOString()} by ${by}`);
  doc.moveDown(0.6);
  const figures: [string, string][] = [
    ['Opening balance', s.opening],
    ['Money in', s.total_in],
    ['Money out', s.total_out],
    ['Opening + movements', s.computed_closing],
    ["Exchange's closing balance", s.closing],
    ['Difference', s.difference],
  ];
  for (const [label, value] of figures) {
    const y = doc.y;
    doc.text(label, MARGIN, y, { width: 160 });
    doc.text(`${value} ${s.currency}`, MARGIN + 160, y, { width: 200 });
  }
  doc.moveDown(0.6);
  doc.text(`Balances from ${s.balances_from}.`, MARGIN, doc.y, { width });
  doc.moveDown(0.4);
  if (s.unexplained.length === 0)
    doc.text("Every movement is explained: opening + movements is the exchange's closing balance.", { width });
  else for (const u of s.unexplained) doc.text(`Not explained: ${u.sentence}.`, { width });
  doc.moveDown(0.4);
  for (const line of s.scope) doc.text(line, { width });
  doc.moveDown(0.8);

  let pageIn: Decimal = new Dec(0);
  let pageOut: Decimal = new Dec(0);
  const header = () => {
    doc.font('Helvetica-Bold').fontSize(SIZE);
    row(COLUMNS.map((c) => c.title));
    doc.font('Helvetica');
  };
  const row = (texts: string[]) => {
    const y = doc.y;
    let x = MARGIN;
    let h = 0;
    texts.forEach((t, i) => {
      const c = COLUMNS[i]!;
      h = Math.max(h, doc.heightOfString(t, { width: c.width - 4 }));
      doc.text(t, x, y, { width: c.width - 4, align: 'right' in c ? 'right' : 'left' });
      x += c.width;
    });
    doc.y = y + h + 3;
  };
  const pageTotals = () => {
    doc.page.margins.bottom = 0;
    doc
      .fontSize(SIZE)
      .text(
        `Counted on this page: in ${fmt(pageIn)} ${s.currency}, out ${fmt(pageOut)} ${s.currency}`,
        MARGIN,
        doc.page.height - MARGIN - FOOTER + 8,
        { width, lineBreak: false },
      );
    doc.page.margins.bottom = MARGIN;
    pageIn = new Dec(0);
    pageOut = new Dec(0);
  };

  doc.fontSize(SIZE);
  if (s.movements.length === 0) doc.text('No movement in the period.', MARGIN, doc.y, { width });
  else header();
  for (const m of s.movements) {
    const texts = cells(m, s.time_zone);
    const h = Math.max(...texts.map((t, i) => doc.heightOfString(t, { width: COLUMNS[i]!.width - 4 })));
    if (doc.y + h > bottom()) {
      pageTotals();
      doc.addPage();
      header();
    }
    row(texts);
    if (m.counted) {
      const a = new Dec(m.amount);
      if (a.isNegative()) pageOut = pageOut.plus(a);
      else pageIn = pageIn.plus(a);
    }
  }
  pageTotals();

  const { start, count } = doc.bufferedPageRange();
  for (let i = start; i < start + count; i++) {
    doc.switchToPage(i);
    doc.page.margins.bottom = 0;
    doc
      .fontSize(SIZE)
      .text(`Page ${i - start + 1} of ${count}`, MARGIN, doc.page.height - MARGIN - 8, { width, align: 'right', lineBreak: false });
    doc.page.margins.bottom = MARGIN;
  }
  doc.end();
  return done;
}
