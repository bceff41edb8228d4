import { ACCOUNT_BOOK_LIMIT, AccountBookEntry } from '../../../shared/api/accountBook.ts';
import { FINAL_DEPOSIT_STATUSES, FINAL_WITHDRAWAL_STATUSES } from '../../../shared/api/statuses.ts';
import { Dec, fmt } from '../../../shared/money.ts';
import type { StoredRow, HistoryDb } from '../cache/historyDb.ts';
import { pagesByNumber, type RecordReader } from '../client/pagination.ts';
import { uidTransferIntent, withdrawalIntent } from '../history/outflows.ts';
import type { IntentView } from '../journal/intents.ts';
import { readWindow, thirtyDayWindows } from '../sync/windows.ts';
import type { BookLine, DeskRecord } from './reconcile.ts';

// What a statement is made of: the account book read from the exchange (§8.1 windows of 30 days, pages
// of 1,000, each request through the scheduler's §8.2 buckets), and the desk's own records of the period
// (the cached histories, named by the journal's intents: the desk's id and who approved).

export interface BookRead {
  lines: BookLine[];
  requests: number;
}

/** Every entry of `currency` from `fromMs` to `nowMs`; `progress` after each window, `cancelled` asked before each request. */
export async function readBook(
  client: RecordReader,
  currency: string,
  fromMs: number,
  nowMs: number,
  progress: (done: number, of: number) => void,
  cancelled: () => boolean,
): Promise<BookRead> {
  const windows = thirtyDayWindows(Math.floor(fromMs / 1000), Math.ceil(nowMs / 1000) + 1);
  const seen = new Set<string>();
  const lines: BookLine[] = [];
  let requests = 0;
  for (let i = 0; i < windows.length; i++) {
    const w = windows[i]!;
    const pages = pagesByNumber(client, {
      path: '/spot/account_book',
      record: AccountBookEntry,
      query: [
        ['currency', currency],
        ['from', String(w.from)],
        ['to', String(w.to)],
      ],
      limit: ACCOUNT_BOOK_LIMIT,
      priority: 'action',
    });
    for await (const page of pages) {
      requests++;
      for (const e of page) {
        const id = String(e.id);
        // Neighbouring windows share their boundary second.
        if (seen.has(id)) continue;
        seen.add(id);
        lines.push({
          id,
          at: Number(e.time),
          change: e.change,
          balance: e.balance,
          type: e.type,
          code: e.code ?? '',
          text: e.text ?? '',
        });
      }
      if (cancelled()) throw new StatementCancelled();
    }
    progress(i + 1, windows.length);
  }
  return { lines, requests };
}

export class StatementCancelled extends Error {
  constructor() {
    super('The statement was cancelled; nothing was kept of it.');
    this.name = 'StatementCancelled';
  }
}

/** Withdrawal statuses whose amount came back (§3.1; the desk's final refunded ones). */
const REFUNDED = new Set(['CANCEL', 'REJECT']);
/** Deposit statuses whose amount is in the account (§3.2). */
const CREDITED = new Set(['DONE', 'DEP_CREDITED']);
/** Transfer and UID-transfer statuses that moved the money (§3.3, §3.4). */
const MOVED = new Set(['SUCCESS', 'RECEIVED', 'DONE']);

function rows(db: HistoryDb, kind: Parameters<HistoryDb['iterate']>[0], currency: string, from: number, to: number): StoredRow[] {
  const out: StoredRow[] = [];
  const filters = { currency, from: Math.floor(from / 1000), to: Math.ceil(to / 1000) };
  for (const r of db.iterate(kind, filters, { by: 'time', dir: 'asc' })) if (r.ts >= from && r.ts < to) out.push(r);
  return out;
}

const by = (i: IntentView | null | undefined): string => i?.approved_by ?? '';

/** A deposit as the desk read it; one not final then may have been credited (or not) by the time the book was read. */
function depositRecord(id: string, at: number, amount: string, status: string): DeskRecord {
  const credit = fmt(new Dec(amount));
  const credited = CREDITED.has(status);
  return {
    kind: 'deposit',
    at,
    amount: credited ? credit : '0',
    fee: '0',
    exchange_id: id,
    desk_id: '',
    approved_by: '',
    bookText: id,
    ...(FINAL_DEPOSIT_STATUSES.has(status) ? {} : { mayBe: [credited ? '0' : credit] }),
  };
}

/**
 * The desk's records of `account` ("main", or a sub-account's uid) in [from, to): for the main account
 * its withdrawals, deposits, UID transfers and main/sub transfers; for a sub-account the main/sub
 * transfers into and out of its spot account (the desk keeps no other list of a sub-account's).
 */
export function deskRecords(
  db: HistoryDb,
  intents: IntentView[],
  account: string,
  currency: string,
  from: number,
  to: number,
): DeskRecord[] {
  const out: DeskRecord[] = [];
  const transferIntent = (r: StoredRow) =>
    r.wire.client_order_id ? intents.find((i) => i.kind === 'main_sub_transfer' && i.client_id === r.wire.client_order_id) : undefined;
  for (const r of rows(db, 'transfers', currency, from, to)) {
    const w = r.wire;
    if (!MOVED.has((w.status ?? '').toUpperCase())) continue;
    const toSub = w.direction === 'to';
    if (account !== 'main' && (w.sub_account !== account || !['', 'spot'].includes(w.sub_account_type ?? ''))) continue;
    const amount = new Dec(w.amount ?? '0');
    const intent = transferIntent(r);
    out.push({
      kind: 'transfer',
      at: r.ts,
      amount: fmt(account === 'main' ? (toSub ? amount.neg() : amount) : toSub ? amount : amount.neg()),
      fee: '0',
      exchange_id: w.client_order_id ?? '',
      desk_id: intent?.id ?? '',
      approved_by: by(intent),
      bookText: null,
    });
  }
  if (account !== 'main') return out;
  for (const r of rows(db, 'withdrawals', currency, from, to)) {
    const intent = withdrawalIntent(r.wire, intents);
    const debit = fmt(new Dec(r.wire.amount ?? '0').neg());
    out.push({
      kind: 'withdrawal',
      at: r.ts,
      amount: REFUNDED.has(r.wire.status ?? '') ? '0' : debit,
      // Still under way when the desk read it: the book, read after, may already hold its refund.
      ...(FINAL_WITHDRAWAL_STATUSES.has(r.wire.status ?? '') ? {} : { mayBe: ['0'] }),
      fee: r.wire.fee || '0',
      exchange_id: r.wire.id ?? r.key,
      desk_id: intent?.id ?? '',
      approved_by: by(intent),
      bookText: r.wire.id ?? r.key,
    });
  }
  for (const r of rows(db, 'deposits', currency, from, to))
    out.push(depositRecord(r.wire.id ?? r.key, r.ts, r.wire.amount ?? '0', r.wire.status ?? ''));
  for (const r of rows(db, 'uid_transfers', currency, from, to)) {
    const intent = uidTransferIntent(r.wire, intents);
    // §2.6: the list of what this account sent is transaction_type "withdraw"; without it, what the desk sent.
    const sent = r.wire.transaction_type ? r.wire.transaction_type === 'withdraw' : intent !== null;
    const amount = new Dec(r.wire.amount ?? '0');
    out.push({
      kind: 'uid_transfer',
      at: r.ts,
      amount: MOVED.has((r.wire.status ?? '').toUpperCase()) ? fmt(sent ? amount.neg() : amount) : '0',
      fee: '0',
      exchange_id: r.wire.id ?? r.key,
      desk_id: intent?.id ?? '',
      approved_by: by(intent),
      bookText: `push${r.wire.id ?? r.key}`,
    });
  }
  return out;
}

/**
 * A sub-account's deposits of `currency` in [fromMs, nowMs], read with its own key (§2.4, 30-day windows):
 * the desk's history cache holds the main account's, and a sub-account's key cannot withdraw (§5.5) nor
 * make UID transfers (main accounts only), so with these and the main/sub transfers every kind of entry
 * its book holds has a record to be matched with.
 */
export async function readSubDeposits(
  client: RecordReader,
  currency: string,
  fromMs: number,
  nowMs: number,
  cancelled: () => boolean,
): Promise<{ records: DeskRecord[]; requests: number }> {
  let requests = 0;
  const counting: RecordReader = {
    request: (req, schema) => (requests++, client.request(req, schema)),
    requestList: (req, record, opts) => (requests++, client.requestList(req, record, opts)),
  };
  const records: DeskRecord[] = [];
  for (const w of thirtyDayWindows(Math.floor(fromMs / 1000), Math.ceil(nowMs / 1000) + 1)) {
    if (cancelled()) throw new StatementCancelled();
    const rows = await readWindow(counting, { path: '/wallet/deposits', query: [['currency', currency]], priority: 'action', ...w }, w);
    for (const d of rows)
      if (d.currency === currency) records.push(depositRecord(d.id, Math.round(Number(d.timestamp) * 1000), d.amount, d.status));
  }
  // Neighbouring windows share their boundary second.
  return { records: [...new Map(records.map((r) => [r.exchange_id, r])).values()], requests };
}
