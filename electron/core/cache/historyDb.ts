import Database from 'better-sqlite3';
import { createHash } from 'node:crypto';
import { chmodSync, closeSync, mkdirSync, openSync } from 'node:fs';
import { dirname } from 'node:path';
import Decimal from 'decimal.js';
import type { HistoryFilters, HistoryKind, HistorySort, UnsentFlag } from '../../../shared/history.ts';
import { TABLES, type TableSpec } from './tables.ts';
import { sqliteOptions } from '../../../shared/sqliteBinding.ts';

// The desk's cache of the exchange's histories: one SQLite file per profile, in the desk's data folder,
// mode 0600. It holds the records as the exchange sent them (wire names), a scaled integer beside each
// amount so that amounts sort without a float, the statuses the desk saw and when, and the desk's
// "not sent by this desk" flags. It never holds a key, a secret or a passphrase.
//
// Adversaries: someone who can write the data folder can edit this file; it drives no write, and the
// flags it holds are re-derived from the journal (which is MAC'd) at every sync, so deleting a flag
// brings it back while its record is there. A relay between desk and exchange can send odd records:
// a record without a key or with an amount that is not a decimal is refused, never stored.

/** Amounts are kept ×10^8 (§8.5: at most 8 decimals for withdrawals and transfers). */
const SCALE = new Decimal(1e8);
const INT64_MAX = (1n << 63n) - 1n;

export class RecordError extends Error {}

export interface Change {
  kind: HistoryKind;
  key: string;
  /** null when the record is new to the cache. */
  from: string | null;
  to: string;
}

export interface StoredRow {
  key: string;
  wire: Record<string, string>;
  ts: number;
  first_seen: number;
  unsent: UnsentFlag | null;
}

export interface Page {
  total: number;
  rows: StoredRow[];
  next_cursor: string | null;
}

function scaled(amount: string): bigint {
  // Plain decimals only, as the exchange writes amounts: an exponent could make the figure any size.
  if (!/^-?\d{1,24}(\.\d{1,30})?$/.test(amount)) throw new RecordError(`amount "${amount.slice(0, 40)}" is not a plain decimal`);
  const n = BigInt(new Decimal(amount).mul(SCALE).toDecimalPlaces(0, Decimal.ROUND_FLOOR).toFixed(0));
  // Beyond ±9.2e10 whole units the scaled figure is clamped: such rows sort together at the end.
  return n > INT64_MAX ? INT64_MAX : n < -INT64_MAX ? -INT64_MAX : n;
}

/** §1: times come as integers, decimals or strings of either; kept in ms. */
function timeMs(v: unknown): number {
  const n = typeof v === 'number' ? v : typeof v === 'string' && /^\d{1,12}(\.\d{1,9})?$/.test(v.trim()) ? Number(v) : NaN;
  if (!Number.isFinite(n)) throw new RecordError(`time "${String(v).slice(0, 40)}" is not a number of seconds`);
  return Math.round(n * 1000);
}

function text(v: unknown): string {
  if (v === undefined || v === null) return '';
  if (typeof v === 'string') return v;
  if (typeof v === 'number' || typeof v === 'bigint' || typeof v === 'boolean') return String(v);
  return JSON.stringify(v);
}

function keyOf(spec: TableSpec, r: Record<string, unknown>): string {
  if (spec.keyField) {
    const k = text(r[spec.keyField]);
    if (!k || k.length > 128) throw new RecordError(`a ${spec.kind} record has no usable ${spec.keyField}`);
    return k;
  }
  // §2.5 transfer records carry no id. Everything but the status identifies one; two transfers equal in
  // every field within one second are indistinguishable to anyone reading this list.
  const body = spec.fields
    .filter((f) => f !== 'status')
    .map((f) => text(r[f]))
    .join('\u0000');
  return createHash('sha256').update(body).digest('hex').slice(0, 32);
}

function encodeCursor(sortValue: string, key: string): string {
  return Buffer.from(JSON.stringify([sortValue, key])).toString('base64url');
}

function decodeCursor(cursor: string): [string, string] {
  try {
    const v = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8')) as unknown;
    if (Array.isArray(v) && v.length === 2 && typeof v[0] === 'string' && /^-?\d{1,20}$/.test(v[0]) && typeof v[1] === 'string')
      return [v[0], v[1]];
  } catch {
    // fall through
  }
  throw new RecordError('the cursor is not one this desk gave out; ask for the first page again');
}

/** A number column as a finite number: what an edited file holds there otherwise reads as 0. */
function finite(v: unknown): number {
  const n = Number(v);
  return Number.isFinite(n) ? n : 0;
}

function likeFragment(s: string): string {
  return `%${s.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}

export interface HistoryDbOptions {
  path: string;
  now?: () => number;
}

export class HistoryDb {
  readonly db: Database.Database;
  private readonly now: () => number;
  private readonly statements = new Map<string, Database.Statement>();
  /**
   * The length of each list under each filter asked since a record was last written new or changed: a
   * sort, the pages of a scroll and the undoing of a filter answer it without counting 100,000 rows
   * again (a cold count was 8-10 ms of the first read of a new process, several times that on a busy
   * machine), and so does a sync that reads back only what the cache holds.
   */
  private readonly totals = new Map<string, number>();

  constructor(opts: HistoryDbOptions) {
    this.now = opts.now ?? Date.now;
    if (opts.path !== ':memory:') {
      mkdirSync(dirname(opts.path), { recursive: true, mode: 0o700 });
      // Created private before SQLite opens it; SQLite gives its -wal and -shm files the same mode.
      closeSync(openSync(opts.path, 'a', 0o600));
      if (process.platform !== 'win32') chmodSync(opts.path, 0o600);
    }
    this.db = new Database(opts.path, sqliteOptions());
    this.db.pragma('journal_mode = WAL');
    this.db.pragma('synchronous = NORMAL');
    this.migrate();
  }

  private migrate(): void {
    const ddl: string[] = [
      'CREATE TABLE IF NOT EXISTS meta (k TEXT PRIMARY KEY, v TEXT NOT NULL)',
      'CREATE TABLE IF NOT EXISTS status_log (kind TEXT NOT NULL, key TEXT NOT NULL, status TEXT NOT NULL, seen_at INTEGER NOT NULL)',
      'CREATE INDEX IF NOT EXISTS status_log_key ON status_log(kind, key, seen_at)',
      `CREATE TABLE IF NOT EXISTS unsent (kind TEXT NOT NULL, key TEXT NOT NULL, flagged_at INTEGER NOT NULL,
         acknowledged_at INTEGER, note TEXT, PRIMARY KEY (kind, key))`,
    ];
    for (const spec of Object.values(TABLES)) {
      const t = spec.kind;
      const cols = spec.fields.map((f) => `${f} TEXT NOT NULL DEFAULT ''`).join(', ');
      ddl.push(
        `CREATE TABLE IF NOT EXISTS ${t} (key TEXT PRIMARY KEY, ${cols}, ts INTEGER NOT NULL, amount_scaled INTEGER NOT NULL,
           first_seen INTEGER NOT NULL, final INTEGER NOT NULL DEFAULT 1, next_check INTEGER NOT NULL DEFAULT 0, checks INTEGER NOT NULL DEFAULT 0)`,
        `CREATE INDEX IF NOT EXISTS ${t}_ts ON ${t}(ts, key)`,
        `CREATE INDEX IF NOT EXISTS ${t}_amount ON ${t}(amount_scaled, key)`,
        `CREATE INDEX IF NOT EXISTS ${t}_currency ON ${t}(currency, ts, key)`,
        `CREATE INDEX IF NOT EXISTS ${t}_status ON ${t}(status, ts, key)`,
        `CREATE INDEX IF NOT EXISTS ${t}_open ON ${t}(final, next_check)`,
      );
      if (spec.hasChain) ddl.push(`CREATE INDEX IF NOT EXISTS ${t}_chain ON ${t}(chain, ts, key)`);
      if (spec.fields.includes('withdraw_order_id')) ddl.push(`CREATE INDEX IF NOT EXISTS ${t}_order ON ${t}(withdraw_order_id)`);
      // A trigram index over the searched fields: a fragment anywhere in an address or txid is found
      // without reading every row (a LIKE '%…%' must). Kept by triggers, so no write path can forget it.
      const found = spec.search.join(', ');
      const vals = (p: string) => spec.search.map((c) => `${p}.${c}`).join(', ');
      ddl.push(
        `CREATE VIRTUAL TABLE IF NOT EXISTS ${t}_fts USING fts5(${found}, content='${t}', content_rowid='rowid', tokenize='trigram')`,
        `CREATE TRIGGER IF NOT EXISTS ${t}_fts_ins AFTER INSERT ON ${t} BEGIN INSERT INTO ${t}_fts(rowid, ${found}) VALUES (new.rowid, ${vals('new')}); END`,
        `CREATE TRIGGER IF NOT EXISTS ${t}_fts_del AFTER DELETE ON ${t} BEGIN INSERT INTO ${t}_fts(${t}_fts, rowid, ${found}) VALUES ('delete', old.rowid, ${vals('old')}); END`,
        `CREATE TRIGGER IF NOT EXISTS ${t}_fts_upd AFTER UPDATE OF ${found} ON ${t} BEGIN
           INSERT INTO ${t}_fts(${t}_fts, rowid, ${found}) VALUES ('delete', old.rowid, ${vals('old')});
           INSERT INTO ${t}_fts(rowid, ${found}) VALUES (new.rowid, ${vals('new')}); END`,
      );
    }
    this.db.exec(ddl.join(';\n'));
  }

  close(): void {
    this.db.close();
  }

  /**
   * Prepared once per cache and kept, not compiled again at every call: a sync upserts batch after batch
   * and a list asks page after page. The texts are a fixed set (per kind and filter shape; values are
   * always bound, never spliced in), so the map stays small.
   */
  private stmt(sql: string, pluck = false): Database.Statement {
    const key = pluck ? `pluck ${sql}` : sql;
    let s = this.statements.get(key);
    if (!s) {
      s = this.db.prepare(sql);
      if (pluck) s.pluck();
      this.statements.set(key, s);
    }
    return s;
  }

  getMeta(k: string): string | null {
    const row = this.stmt('SELECT v FROM meta WHERE k = ?').get(k) as { v: string } | undefined;
    return row?.v ?? null;
  }

  setMeta(k: string, v: string | null): void {
    if (v === null) this.stmt('DELETE FROM meta WHERE k = ?').run(k);
    else this.stmt('INSERT INTO meta (k, v) VALUES (?, ?) ON CONFLICT(k) DO UPDATE SET v = excluded.v').run(k, v);
  }

  /** Runs fn in one transaction: a kill mid-way leaves the cache as it was before. */
  tx<T>(fn: () => T): T {
    return this.db.transaction(fn)();
  }

  /**
   * Stores records (new or updated) and notes every status the desk sees for the first time. Records
   * that fail the shape check are skipped and counted; none of them changes the cache.
   */
  upsert(kind: HistoryKind, records: unknown[], isFinal: (status: string) => boolean): { changes: Change[]; rejected: string[] } {
    const spec = TABLES[kind];
    const now = this.now();
    const getOld = this.stmt(`SELECT status FROM ${kind} WHERE key = ?`, true);
    const cols = spec.fields.join(', ');
    const put = this.stmt(
      `INSERT INTO ${kind} (key, ${cols}, ts, amount_scaled, first_seen, final, next_check, checks)
       VALUES (@key, ${spec.fields.map((f) => `@${f}`).join(', ')}, @ts, @amount_scaled, @now, @final, @now, 0)
       ON CONFLICT(key) DO UPDATE SET ${spec.fields.map((f) => `${f} = excluded.${f}`).join(', ')},
         ts = excluded.ts, amount_scaled = excluded.amount_scaled, final = excluded.final,
         next_check = CASE WHEN ${kind}.status = excluded.status THEN ${kind}.next_check ELSE excluded.next_check END,
         checks = CASE WHEN ${kind}.status = excluded.status THEN ${kind}.checks ELSE 0 END
       WHERE ${spec.fields.map((f) => `${kind}.${f} IS NOT excluded.${f}`).join(' OR ')}`,
    );
    const log = this.stmt('INSERT INTO status_log (kind, key, status, seen_at) VALUES (?, ?, ?, ?)');
    const changes: Change[] = [];
    const rejected: string[] = [];
    for (const raw of records) {
      try {
        if (!raw || typeof raw !== 'object') throw new RecordError(`a ${kind} record is not an object`);
        const r = raw as Record<string, unknown>;
        const key = keyOf(spec, r);
        const row: Record<string, unknown> = { key, now };
        for (const f of spec.fields) row[f] = text(r[f]);
        const status = row.status as string;
        row.ts = timeMs(r[spec.timeField]);
        row.amount_scaled = scaled(row.amount as string);
        row.final = isFinal(status) ? 1 : 0;
        const old = getOld.get(key) as string | undefined;
        // A record new or changed can change a list's length under some filter; one read again as it was cannot.
        if (put.run(row).changes > 0) this.totals.clear();
        if (old !== status) {
          log.run(kind, key, status, now);
          changes.push({ kind, key, from: old ?? null, to: status });
        }
      } catch (e) {
        if (!(e instanceof RecordError)) throw e;
        rejected.push(e.message);
      }
    }
    return { changes, rejected };
  }

  count(kind: HistoryKind, where = '1 = 1', params: unknown[] = []): number {
    return this.stmt(`SELECT COUNT(*) FROM ${kind} WHERE ${where}`, true).get(...params) as number;
  }

  private whereOf(spec: TableSpec, f: HistoryFilters): { sql: string; params: unknown[] } {
    const parts: string[] = [];
    const params: unknown[] = [];
    if (f.currency) {
      parts.push('t.currency = ?');
      params.push(f.currency.toUpperCase());
    }
    if (f.status && spec.hasStatus) {
      parts.push('t.status = ?');
      params.push(f.status);
    }
    if (f.chain && spec.hasChain) {
      parts.push('t.chain = ?');
      params.push(f.chain);
    }
    if (f.from !== undefined) {
      parts.push('t.ts >= ?');
      params.push(f.from * 1000);
    }
    if (f.to !== undefined) {
      parts.push('t.ts <= ?');
      params.push(f.to * 1000 + 999);
    }
    if (f.search && f.search.length >= 3) {
      // Trigrams need three characters; the fragment is quoted as one FTS5 string, never read as syntax.
      parts.push(`t.rowid IN (SELECT rowid FROM ${spec.kind}_fts WHERE ${spec.kind}_fts MATCH ?)`);
      params.push(`"${f.search.replace(/"/g, '""')}"`);
    } else if (f.search) {
      parts.push(`(${spec.search.map((c) => `t.${c} LIKE ? ESCAPE '\\'`).join(' OR ')})`);
      for (let i = 0; i < spec.search.length; i++) params.push(likeFragment(f.search));
    }
    return { sql: parts.length ? parts.join(' AND ') : '1 = 1', params };
  }

  /**
   * One page, by keyset: the cursor is the last row's sort value and key, so rows inserted while an
   * operator pages never shift a page (no repeat, no gap), unlike an offset. A virtual list that jumps
   * to row N asks by `offset` instead: the rows are picked on the sort index alone (no row read, no join
   * for the rows skipped), so the page deep in 100,000 rows costs the core milliseconds, not the window.
   */
  page(kind: HistoryKind, filters: HistoryFilters, sort: HistorySort, limit: number, cursor?: string, offset?: number): Page {
    const spec = TABLES[kind];
    const where = this.whereOf(spec, filters);
    const totalKey = JSON.stringify([kind, where.sql, where.params]);
    let total = this.totals.get(totalKey);
    if (total === undefined) {
      total = this.stmt(`SELECT COUNT(*) FROM ${kind} t WHERE ${where.sql}`, true).get(...where.params) as number;
      // One per search typed; records change every minute at most, but a long session of searches must not grow it.
      if (this.totals.size >= 256) this.totals.clear();
      this.totals.set(totalKey, total);
    }
    const col = sort.by === 'amount' ? 't.amount_scaled' : 't.ts';
    const dir = sort.dir === 'asc' ? 'ASC' : 'DESC';
    const params = [...where.params];
    let keyset = '';
    if (cursor) {
      const [v, k] = decodeCursor(cursor);
      keyset = ` AND (${col}, t.key) ${dir === 'ASC' ? '>' : '<'} (?, ?)`;
      params.push(BigInt(v), k);
    }
    const order = `ORDER BY ${col} ${dir}, t.key ${dir}`;
    const rows = (
      offset === undefined
        ? this.stmt(
            `SELECT t.*, CAST(${col} AS TEXT) AS sort_value, u.flagged_at, u.acknowledged_at, u.note
             FROM ${kind} t LEFT JOIN unsent u ON u.kind = '${kind}' AND u.key = t.key
             WHERE ${where.sql}${keyset} ${order} LIMIT ?`,
          ).all(...params, limit + 1)
        : this.stmt(
            `SELECT t.*, CAST(${col} AS TEXT) AS sort_value, u.flagged_at, u.acknowledged_at, u.note
             FROM ${kind} t LEFT JOIN unsent u ON u.kind = '${kind}' AND u.key = t.key
             WHERE t.rowid IN (SELECT t.rowid FROM ${kind} t WHERE ${where.sql}${keyset} ${order} LIMIT ? OFFSET ?) ${order}`,
          ).all(...params, limit + 1, offset)
    ) as Array<Record<string, unknown>>;
    const more = rows.length > limit;
    const shown = rows.slice(0, limit);
    const last = shown.at(-1);
    return {
      total,
      rows: shown.map((r) => this.toStored(spec, r)),
      next_cursor: more && last ? encodeCursor(String(last.sort_value), String(last.key)) : null,
    };
  }

  /** Every row of a filtered list, in order, without holding them all at once. */
  *iterate(kind: HistoryKind, filters: HistoryFilters, sort: HistorySort): Generator<StoredRow> {
    let cursor: string | undefined;
    for (;;) {
      const p = this.page(kind, filters, sort, 1000, cursor);
      yield* p.rows;
      if (!p.next_cursor) return;
      cursor = p.next_cursor;
    }
  }

  /** Which of these client order ids (`withdraw_order_id`) the withdrawal list holds. */
  listedOrderIds(ids: readonly string[]): Set<string> {
    const out = new Set<string>();
    for (let i = 0; i < ids.length; i += 500) {
      const part = ids.slice(i, i + 500);
      const rows = this.db
        .prepare(`SELECT withdraw_order_id AS id FROM withdrawals WHERE withdraw_order_id IN (${part.map(() => '?').join(', ')})`)
        .all(...part) as { id: string }[];
      for (const r of rows) out.add(r.id);
    }
    return out;
  }

  get(kind: HistoryKind, key: string): StoredRow | null {
    const spec = TABLES[kind];
    const r = this.stmt(
      `SELECT t.*, u.flagged_at, u.acknowledged_at, u.note FROM ${kind} t
       LEFT JOIN unsent u ON u.kind = '${kind}' AND u.key = t.key WHERE t.key = ?`,
    ).get(key) as Record<string, unknown> | undefined;
    return r ? this.toStored(spec, r) : null;
  }

  /**
   * The typed row mapper: every value is made the type the contract gives it here, so that the lists'
   * answers need no schema check on the way out (core.ts), even from a file someone edited (a column
   * holding text where a time should be reads as 0, never as NaN or a string).
   */
  private toStored(spec: TableSpec, r: Record<string, unknown>): StoredRow {
    const wire: Record<string, string> = {};
    for (const f of spec.fields) wire[f] = String(r[f] ?? '');
    const flagged = r.flagged_at;
    return {
      key: String(r.key),
      wire,
      ts: finite(r.ts),
      first_seen: finite(r.first_seen),
      unsent:
        flagged == null
          ? null
          : {
              state: r.acknowledged_at == null ? 'flagged' : 'acknowledged',
              flagged_at: finite(flagged),
              acknowledged_at: r.acknowledged_at == null ? null : finite(r.acknowledged_at),
              note: r.note == null ? null : String(r.note),
            },
    };
  }

  timeline(kind: HistoryKind, key: string): Array<{ status: string; seen_at: number }> {
    return this.stmt('SELECT status, seen_at FROM status_log WHERE kind = ? AND key = ? ORDER BY seen_at, rowid').all(kind, key) as Array<{
      status: string;
      seen_at: number;
    }>;
  }

  /** Records not final, oldest first; with `dueBy`, only those whose next check has come. */
  open(kind: HistoryKind, dueBy?: number): StoredRow[] {
    const spec = TABLES[kind];
    const rows = this.stmt(
      `SELECT t.* FROM ${kind} t WHERE final = 0 ${dueBy === undefined ? '' : 'AND next_check <= ?'} ORDER BY ts, key`,
    ).all(...(dueBy === undefined ? [] : [dueBy])) as Array<Record<string, unknown>>;
    return rows.map((r) => this.toStored(spec, r));
  }

  openCount(kind: HistoryKind): number {
    return this.count(kind, 'final = 0');
  }

  /** After a check that found no change: the next one waits longer (backoff), up to maxMs. */
  deferCheck(kind: HistoryKind, key: string, baseMs: number, maxMs: number): void {
    const row = this.stmt(`SELECT checks FROM ${kind} WHERE key = ?`).get(key) as { checks: number } | undefined;
    if (!row) return;
    const wait = Math.min(maxMs, baseMs * 2 ** Math.min(row.checks, 20));
    this.stmt(`UPDATE ${kind} SET checks = checks + 1, next_check = ? WHERE key = ?`).run(this.now() + wait, key);
  }

  /**
   * How many records fall in [fromSec, toSec] (whole seconds, both ends in): the cost of re-reading that
   * window. Counted on the time index; reading every record's time to count them in the window was
   * 100,000 values and their garbage at each check of an unfinished withdrawal (docs/performance.md §Long lists).
   */
  countBetween(kind: HistoryKind, fromSec: number, toSec: number): number {
    return this.stmt(`SELECT COUNT(*) FROM ${kind} WHERE ts >= ? AND ts <= ?`, true).get(fromSec * 1000, toSec * 1000 + 999) as number;
  }

  flag(kind: HistoryKind, key: string): boolean {
    return this.stmt('INSERT OR IGNORE INTO unsent (kind, key, flagged_at) VALUES (?, ?, ?)').run(kind, key, this.now()).changes > 0;
  }

  unflag(kind: HistoryKind, key: string): void {
    this.stmt('DELETE FROM unsent WHERE kind = ? AND key = ? AND acknowledged_at IS NULL').run(kind, key);
  }

  acknowledge(kind: HistoryKind, key: string, note: string): boolean {
    return (
      this.stmt('UPDATE unsent SET acknowledged_at = ?, note = ? WHERE kind = ? AND key = ? AND acknowledged_at IS NULL').run(
        this.now(),
        note,
        kind,
        key,
      ).changes > 0
    );
  }

  /** Flags not yet acknowledged, newest first, with their records. */
  flagged(includeAcknowledged = false): Array<{ kind: HistoryKind; row: StoredRow }> {
    const list = this.stmt(
      `SELECT kind, key FROM unsent ${includeAcknowledged ? '' : 'WHERE acknowledged_at IS NULL'} ORDER BY flagged_at DESC`,
    ).all() as Array<{ kind: HistoryKind; key: string }>;
    return list.flatMap(({ kind, key }) => {
      const row = this.get(kind, key);
      return row ? [{ kind, row }] : [];
    });
  }

  unsentCount(): number {
    return this.stmt('SELECT COUNT(*) FROM unsent WHERE acknowledged_at IS NULL', true).get() as number;
  }

  /** Records of a kind dated after `sinceMs`, for the outflow check. */
  since(kind: HistoryKind, sinceMs: number): StoredRow[] {
    const spec = TABLES[kind];
    const rows = this.stmt(`SELECT t.* FROM ${kind} t WHERE ts > ? ORDER BY ts`).all(sinceMs) as Array<Record<string, unknown>>;
    return rows.map((r) => this.toStored(spec, r));
  }
}
