import type Decimal from 'decimal.js';
import { RECORDED_BOOK_TYPES } from '../../../shared/api/accountBook.ts';
import { Dec, fmt } from '../../../shared/money.ts';
import type { Movement, Statement } from '../../../shared/statements.ts';

// A statement from two witnesses: the exchange's account book, whose balance after each entry gives the
// exchange's own opening and closing balances, and the desk's records (its cached histories and the
// journal), which name each movement. A book entry of a kind the desk keeps records of is counted only
// when a record explains it; one without is named, not counted, and so is a record the book does not
// hold. Opening + counted movements = closing exactly when both witnesses agree on every movement.

/** One entry of the exchange's account book (AccountBookEntry), amounts as decimal strings. */
export interface BookLine {
  id: string;
  at: number;
  change: string;
  balance: string;
  type: string;
  code: string;
  text: string;
}

/** A movement as a desk record tells it: its signed effect on the account's balance. */
export interface DeskRecord {
  kind: 'withdrawal' | 'deposit' | 'transfer' | 'uid_transfer';
  at: number;
  amount: string;
  fee: string;
  exchange_id: string;
  desk_id: string;
  approved_by: string;
  /** The book's `text` for its entries (a withdrawal's id); null when the book names it otherwise (a main/sub transfer). */
  bookText: string | null;
  /**
   * Other sums the book may hold for it: a withdrawal or deposit not final when the desk read it may
   * have been refunded or credited by the time the book was read after it.
   */
  mayBe?: string[];
}

export interface StatementInput {
  account: string;
  accountLabel: string;
  currency: string;
  from: number;
  to: number;
  timeZone: string;
  /** The book's entries of this currency from `from` up to now (any order the exchange gave, newest first). */
  book: BookLine[];
  /** The exchange's total (available + locked) now. */
  totalNow: string;
  /** The desk's records of this account and currency dated inside the period. */
  desk: DeskRecord[];
  scope: string[];
  requests: number;
}

/** A main/sub transfer record and its book entry: same change, within this of each other. */
const TRANSFER_MATCH_MS = 2_000;
/** The book's code of a sub↔sub transfer (docs/sandbox.md), which the desk keeps no list of. */
const SUB_TO_SUB_CODE = '202';
const NAMED = 5;

const utc = (ms: number): string => `${new Date(ms).toISOString().slice(0, 19).replace('T', ' ')} UTC`;
const signed = (d: Decimal): string => (d.isNegative() ? fmt(d) : `+${fmt(d)}`);

function bookOnly(e: BookLine): boolean {
  return !RECORDED_BOOK_TYPES.has(e.type) || (e.type === 'sub_account_transfer' && e.code === SUB_TO_SUB_CODE);
}

/** Which desk record explains each book entry (by the book's text, else a transfer by amount and time). */
function match(book: BookLine[], desk: DeskRecord[]): Map<BookLine, DeskRecord> {
  const out = new Map<BookLine, DeskRecord>();
  const byText = new Map<string, DeskRecord>();
  for (const r of desk) if (r.bookText !== null) byText.set(r.bookText, r);
  const transfers = desk.filter((r) => r.kind === 'transfer');
  const taken = new Set<DeskRecord>();
  for (const e of book) {
    if (bookOnly(e)) continue;
    const r = byText.get(e.text);
    if (r) {
      out.set(e, r);
      continue;
    }
    if (e.type !== 'sub_account_transfer') continue;
    const t = transfers.find((x) => !taken.has(x) && new Dec(x.amount).eq(e.change) && Math.abs(x.at - e.at) <= TRANSFER_MATCH_MS);
    if (t) {
      taken.add(t);
      out.set(e, t);
    }
  }
  return out;
}

function sumOf(xs: { amount: string }[]): Decimal {
  return xs.reduce((s, x) => s.plus(x.amount), new Dec(0));
}

function named(list: string[]): string {
  return list.length > NAMED ? `${list.slice(0, NAMED).join(', ')} and ${list.length - NAMED} more` : list.join(', ');
}

export function buildStatement(input: StatementInput): Omit<Statement, 'id'> {
  const { from, to, currency } = input;
  // Oldest first; the exchange lists the newest first, so entries of one instant keep its order reversed.
  const book = [...input.book]
    .reverse()
    .map((e, i) => ({ e, i }))
    .sort((a, b) => a.e.at - b.e.at || a.i - b.i)
    .map((x) => x.e);
  const firstFrom = book.find((e) => e.at >= from);
  const firstAfter = book.find((e) => e.at >= to);
  const before = (e: BookLine | undefined): Decimal => (e ? new Dec(e.balance).minus(e.change) : new Dec(input.totalNow));
  const opening = before(firstFrom);
  // With no entry after the end, the balance after the last one: the book's balances hold whenever it is
  // read, while the total now was read before the book and may miss an entry the book holds.
  const last = book.at(-1);
  const closing = firstAfter ? before(firstAfter) : last ? new Dec(last.balance) : new Dec(input.totalNow);
  const inPeriod = book.filter((e) => e.at >= from && e.at < to);
  const matched = match(book, input.desk);
  const used = new Set(matched.values());

  const lines: Movement[] = [];
  const notInDesk: BookLine[] = [];
  for (const e of inPeriod) {
    const r = matched.get(e);
    const explained = r !== undefined || bookOnly(e);
    if (!explained) notInDesk.push(e);
    lines.push({
      at: e.at,
      type: e.type,
      amount: fmt(new Dec(e.change)),
      // A withdrawal's fee is inside its amount (§2.3); its refund carries none.
      fee: r && e.type === 'withdraw' ? r.fee : '0',
      balance_after: fmt(new Dec(e.balance)),
      exchange_id: r?.exchange_id || e.text,
      desk_id: r?.desk_id ?? '',
      approved_by: r?.approved_by ?? '',
      source: r ? 'both' : 'book',
      counted: explained,
    });
  }
  const notInBook = input.desk.filter((r) => !used.has(r) && r.at >= from && r.at < to && !new Dec(r.amount).isZero());
  for (const r of notInBook)
    lines.push({
      at: r.at,
      type: r.kind,
      amount: fmt(new Dec(r.amount)),
      fee: r.fee,
      balance_after: '0',
      exchange_id: r.exchange_id,
      desk_id: r.desk_id,
      approved_by: r.approved_by,
      source: 'desk',
      counted: true,
    });
  lines.sort((a, b) => a.at - b.at);
  // A desk-only line has no balance of the exchange's: the running figure from the line before it.
  let running = opening;
  for (const l of lines) {
    if (l.source === 'desk') l.balance_after = fmt((running = running.plus(l.amount)));
    else if (l.counted) running = new Dec(l.balance_after);
  }

  const counted = lines.filter((l) => l.counted);
  const totalIn = counted.filter((l) => !l.amount.startsWith('-')).reduce((s, l) => s.plus(l.amount), new Dec(0));
  const totalOut = counted.filter((l) => l.amount.startsWith('-')).reduce((s, l) => s.plus(l.amount), new Dec(0));
  const computed = opening.plus(totalIn).plus(totalOut);
  const difference = closing.minus(computed);

  const unexplained: Statement['unexplained'] = [];
  if (notInDesk.length > 0) {
    const amount = sumOf(notInDesk.map((e) => ({ amount: e.change })));
    unexplained.push({
      count: notInDesk.length,
      amount: fmt(amount),
      sentence: `${notInDesk.length} movement${notInDesk.length === 1 ? '' : 's'} of ${signed(amount)} ${currency} not explained: the exchange's account book holds ${named(
        notInDesk.map((e) => `${e.type} ${e.text || e.id} (${utc(e.at)})`),
      )}, which the desk's records do not`,
    });
  }
  if (notInBook.length > 0) {
    const amount = sumOf(notInBook);
    unexplained.push({
      count: notInBook.length,
      amount: fmt(amount.neg()),
      sentence: `${notInBook.length} movement${notInBook.length === 1 ? '' : 's'} of ${signed(amount)} ${currency} in the desk's records ${notInBook.length === 1 ? 'is' : 'are'} not in the exchange's account book: ${named(
        notInBook.map((r) => `${r.kind.replace('_', ' ')} ${r.exchange_id || r.desk_id} (${utc(r.at)})`),
      )}`,
    });
  }
  // A record that names its book entries but says another amount: the book's figure is the one counted
  // (it is the exchange's balance), and the disagreement is named. Only a record dated inside what was
  // read of the book (from the start) can be compared: an older one's first entry was not read.
  const booked = new Map<DeskRecord, Decimal>();
  for (const [e, r] of matched) if (r.at >= from) booked.set(r, (booked.get(r) ?? new Dec(0)).plus(e.change));
  const disagree = [...booked].filter(([r, sum]) => !sum.eq(r.amount) && !(r.mayBe ?? []).some((a) => sum.eq(a)));
  const named_ = unexplained.reduce((s, u) => s.plus(u.amount), new Dec(0));
  if (disagree.length > 0)
    unexplained.push({
      count: disagree.length,
      amount: fmt(disagree.reduce((s, [r, sum]) => s.plus(sum).minus(r.amount), new Dec(0))),
      sentence: `${disagree.length} movement${disagree.length === 1 ? '' : 's'} of ${currency} where the desk's records and the exchange's account book disagree on the amount: ${named(
        disagree.map(
          ([r, sum]) =>
            `${r.kind.replace('_', ' ')} ${r.exchange_id || r.desk_id} (the desk ${signed(new Dec(r.amount))}, the book ${signed(sum)})`,
        ),
      )}; the book's amount is counted`,
    });
  const rest = difference.minus(named_);
  if (!rest.isZero())
    unexplained.push({
      count: 1,
      amount: fmt(rest),
      sentence: `${signed(rest)} ${currency} not explained by any movement: the exchange's balances do not follow from its own account book`,
    });

  return {
    account: input.account,
    account_label: input.accountLabel,
    currency,
    from,
    to,
    time_zone: input.timeZone,
    opening: fmt(opening),
    closing: fmt(closing),
    balances_from:
      firstFrom === undefined
        ? "the exchange's balance now: its account book holds no entry since the start"
        : firstAfter === undefined
          ? "the exchange's account book: the balance before its first entry of the period, and after its last (none since the end)"
          : "the exchange's account book: the balance before its first entry from the start, and before its first entry from the end",
    movements: lines,
    total_in: fmt(totalIn),
    total_out: fmt(totalOut),
    computed_closing: fmt(computed),
    difference: fmt(difference),
    unexplained,
    scope: input.scope,
    requests: input.requests,
  };
}
