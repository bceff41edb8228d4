import { createHash, randomUUID } from 'node:crypto';
import { stringify } from 'csv-stringify/sync';
import { z } from 'zod';
import { Dec, fmt } from '../../../shared/money.ts';
import {
  MAX_STATEMENTS_A_RUN,
  STATEMENT_CSV_COLUMNS,
  type Statement,
  type StatementEvery,
  type StatementEveryRequest,
  type StatementFile,
  type StatementFormat,
  type StatementProgress,
  type StatementRequest,
  type StatementVerdict,
} from '../../../shared/statements.ts';
import type { HistoryDb } from '../cache/historyDb.ts';
import type { RecordReader } from '../client/pagination.ts';
import { InputError } from '../errors.ts';
import { spreadsheetSafe } from '../history/csv.ts';
import type { Journal } from '../journal/journal.ts';
import { statementPdf } from './pdf.ts';
import { buildStatement } from './reconcile.ts';
import { deskRecords, readBook, readSubDeposits, StatementCancelled } from './sources.ts';

// Statements of the active profile (docs/statements.md): built from the exchange's account book and the
// desk's records, kept in the core by id so that what is exported and issued is what the core built
// (never figures the window sends back), and issued with their SHA-256 in the journal for Verify.

export interface StatementSources {
  /** The client signing with `account`'s own key: "main", or a sub-account whose key the profile holds. */
  clientOf(account: string): RecordReader;
  /** Sub-accounts whose key the profile holds, and all the profile knows of. */
  subAccounts(): { withKey: string[]; known: string[] };
  history(): HistoryDb;
  journal(): Journal | null;
  now(): number;
}

const SpotRow = z.looseObject({ currency: z.string(), available: z.string(), locked: z.string() });

/** Built statements kept for export, the newest: the largest run, and as many single ones. */
const KEPT = 2 * MAX_STATEMENTS_A_RUN;

const SCOPE_SPOT =
  'Spot account only: the isolated margin, perpetual futures and cross margin account books are not read, so what moves inside those accounts is outside this statement (transfers between them and spot are in it).';
const SCOPE_SUB =
  "A sub-account's deposits are read with its own key; it cannot withdraw or make UID transfers (§5.5, §2.6), and its transfers to other sub-accounts are in its account book only, so they are counted as the book gives them.";

/** How far before a statement's start the desk's records are read to name the period's book entries. */
const RECORDS_BEFORE_MS = 90 * 86_400_000;

const isoDay = (ms: number) => new Date(ms).toISOString().slice(0, 10);

export class StatementService {
  private readonly built = new Map<string, Statement>();
  private progress: StatementProgress = { running: false, done: 0, of: 0, unit: 'windows' };
  private cancelAsked = false;

  constructor(private readonly src: StatementSources) {}

  accounts(): { account: string; label: string; readable: boolean; why?: string }[] {
    const { withKey, known } = this.src.subAccounts();
    const held = new Set(withKey);
    return [
      { account: 'main', label: 'Main account', readable: true },
      ...[...new Set([...withKey, ...known])].sort().map((uid) =>
        held.has(uid)
          ? { account: uid, label: `Sub-account ${uid}`, readable: true }
          : {
              account: uid,
              label: `Sub-account ${uid}`,
              readable: false,
              why: 'its account book is read with its own key, which this profile does not hold (Settings adds one)',
            },
      ),
    ];
  }

  status(): StatementProgress {
    return { ...this.progress };
  }

  cancel(): void {
    if (this.progress.running) this.cancelAsked = true;
  }

  async build(req: StatementRequest): Promise<Statement> {
    const readable = this.accounts().find((a) => a.account === req.account);
    if (!readable) throw new InputError(['account'], `sub-account ${req.account} is not one of this profile's`);
    if (!readable.readable) throw new InputError(['account'], `${readable.label} cannot be read: ${readable.why}`);
    return this.running('windows', (now) =>
      this.one(req, readable.label, now, (done, of) => (this.progress = { running: true, done, of, unit: 'windows' })),
    );
  }

  /** A statement of each currency for each account asked (or each one the profile can read), one after another. */
  async buildEvery(req: StatementEveryRequest): Promise<StatementEvery> {
    const { accounts: named, currencies, ...period } = req;
    const all = this.accounts();
    const chosen = named
      ? named.map((account) => {
          const a = all.find((x) => x.account === account);
          if (!a) throw new InputError(['accounts'], `sub-account ${account} is not one of this profile's`);
          if (!a.readable) throw new InputError(['accounts'], `${a.label} cannot be read: ${a.why}`);
          return a;
        })
      : all.filter((a) => a.readable);
    const of = chosen.length * currencies.length;
    if (of > MAX_STATEMENTS_A_RUN)
      throw new InputError(['currencies'], `${of} statements is more than ${MAX_STATEMENTS_A_RUN} a run: ask for fewer currencies`);
    return this.running('statements', async (now) => {
      const statements: StatementEvery['statements'] = [];
      for (const a of chosen)
        for (const currency of currencies) {
          this.progress = { running: true, done: statements.length, of, unit: 'statements' };
          const { movements, ...figures } = await this.one({ ...period, account: a.account, currency }, a.label, now, () => undefined);
          statements.push({ ...figures, movement_count: movements.length });
        }
      return { statements, unreadable: named ? [] : all.filter((a) => !a.readable) };
    });
  }

  /** Runs `work` as the one build in progress, cancellable, its "now" taken once for every account. */
  private async running<T>(unit: StatementProgress['unit'], work: (now: number) => Promise<T>): Promise<T> {
    if (this.progress.running) throw new InputError([], 'A statement is being built already: wait for it, or cancel it.');
    this.progress = { running: true, done: 0, of: 0, unit };
    this.cancelAsked = false;
    try {
      return await work(this.src.now());
    } catch (e) {
      if (e instanceof StatementCancelled) throw new InputError([], e.message);
      throw e;
    } finally {
      this.progress = { ...this.progress, running: false };
      this.cancelAsked = false;
    }
  }

  private async one(req: StatementRequest, label: string, now: number, onWindows: (done: number, of: number) => void): Promise<Statement> {
    if (req.from >= now) throw new InputError(['from'], 'the period starts in the future');
    const client = this.src.clientOf(req.account);
    const spot = await client.request(
      { method: 'GET', path: '/spot/accounts', query: [['currency', req.currency]], priority: 'action' },
      z.array(SpotRow),
    );
    const row = spot.find((r) => r.currency === req.currency);
    const totalNow = row ? fmt(new Dec(row.available).plus(row.locked)) : '0';
    // The desk's records are read before the book, so that the book is never older than them: a record
    // final then is final in the book; one still under way may have moved on (DeskRecord.mayBe).
    const intents = this.src.journal()?.intents() ?? [];
    // From before the start, so that a refund inside the period finds the withdrawal it returns.
    const recordsFrom = req.from - RECORDS_BEFORE_MS;
    const desk = deskRecords(this.src.history(), intents, req.account, req.currency, recordsFrom, now + 1);
    const book = await readBook(client, req.currency, req.from, now, onWindows, () => this.cancelAsked);
    let requests = book.requests + 1;
    if (req.account !== 'main') {
      const deposits = await readSubDeposits(client, req.currency, recordsFrom, now, () => this.cancelAsked);
      desk.push(...deposits.records);
      requests += deposits.requests;
    }
    const made = buildStatement({
      account: req.account,
      accountLabel: label,
      currency: req.currency,
      from: req.from,
      to: Math.min(req.to, now),
      timeZone: req.time_zone,
      book: book.lines,
      totalNow,
      desk,
      scope: req.account === 'main' ? [SCOPE_SPOT] : [SCOPE_SPOT, SCOPE_SUB],
      requests,
    });
    const statement: Statement = { id: randomUUID(), ...made };
    this.built.set(statement.id, statement);
    while (this.built.size > KEPT) this.built.delete(this.built.keys().next().value!);
    return statement;
  }

  /** A statement this service built and still holds. */
  get(id: string): Statement {
    const s = this.built.get(id);
    if (!s) throw new InputError(['id'], 'this statement is no longer held by the desk: build it again');
    return s;
  }

  /** The statement as CSV (one row a movement) or PDF, and its digest recorded in the journal as issued by `by`. */
  async issue(id: string, format: StatementFormat, by: string): Promise<StatementFile> {
    const s = this.get(id);
    const journal = this.src.journal();
    if (!journal) throw new InputError([], 'This profile keeps no journal, so a statement cannot be issued with its digest.');
    const bytes = format === 'csv' ? Buffer.from(statementCsv(s), 'utf8') : await statementPdf(s, this.src.now(), by);
    const sha256 = createHash('sha256').update(bytes).digest('hex');
    const filename = `statement-${s.account}-${s.currency}-${isoDay(s.from)}-${isoDay(s.to - 1)}.${format}`;
    journal.append({
      type: 'statement_issued',
      sha256,
      filename,
      format,
      account: s.account,
      currency: s.currency,
      from: s.from,
      to: s.to,
      closing: s.closing,
      difference: s.difference,
      by,
    });
    return { filename, format, content_base64: bytes.toString('base64'), sha256 };
  }

  /** Whether `bytes` are, to the byte, a statement this profile's journal recorded as issued. */
  verify(bytes: Buffer): StatementVerdict {
    const sha256 = createHash('sha256').update(bytes).digest('hex');
    const found = (this.src.journal()?.issued() ?? []).find((r) => r.sha256 === sha256);
    if (!found)
      return {
        ok: false,
        sha256,
        sentence: `No statement this desk issued has this content (SHA-256 ${sha256}): it was changed after it was issued, or it is not this profile's.`,
      };
    return {
      ok: true,
      sha256,
      sentence: `Issued by this desk at ${found.at}${found.by ? ` by ${found.by}` : ''}: ${found.filename} (${found.account}, ${found.currency}, ${new Date(found.from).toISOString()} to ${new Date(found.to).toISOString()}), closing balance ${found.closing}, difference ${found.difference}. Journal entry ${found.seq}.`,
    };
  }
}

/** One row a movement, in the columns of a ledger import (shared/statements.ts); not-explained rows say so. */
export function statementCsv(s: Statement): string {
  const rows = s.movements.map((m) =>
    [
      new Date(m.at).toISOString(),
      s.account_label,
      s.currency,
      m.counted ? m.type : `${m.type} (not explained)`,
      m.amount,
      m.fee,
      m.balance_after,
      m.exchange_id,
      m.desk_id,
      m.approved_by,
    ].map(spreadsheetSafe),
  );
  return stringify(rows, { header: true, columns: [...STATEMENT_CSV_COLUMNS] });
}
