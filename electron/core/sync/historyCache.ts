import { existsSync, renameSync } from 'node:fs';
import { join } from 'node:path';
import { isFinalDepositStatus, isFinalWithdrawalStatus } from '../../../shared/api/statuses.ts';
import type { HistoryKind } from '../../../shared/history.ts';
import { HistoryDb, type Change, type StoredRow } from '../cache/historyDb.ts';
import type { ApiClient, Priority } from '../client/client.ts';
import { z } from 'zod';
import { Withdrawal } from '../../../shared/api/records.ts';
import { NetworkError } from '../errors.ts';
import type { QueryPairs } from '../client/sign.ts';
import { MAX_LIMIT, MAX_RANGE_SEC, readWindow, thirtyDayWindows, type WindowedPath } from './windows.ts';

// The year of history is read once (cold); later syncs read only what is new since the last one (warm),
// from a little before it. Each 30-day window is committed to the cache in one transaction together with
// how far its list has been read, so a desk killed in the middle of a sync loses at most the window in
// hand and the next sync carries on from there: the cache never holds half a window and never a record
// twice. Withdrawals that are not final are followed by id, deposits by re-reading their window.

const FINAL_UID_TRANSFER = new Set(['CANCELLED', 'REFUSED', 'RECEIVED']);

export const IS_FINAL: Record<HistoryKind, (status: string) => boolean> = {
  withdrawals: isFinalWithdrawalStatus,
  deposits: isFinalDepositStatus,
  // §2.5: "currently only success"; the desk does not follow transfer records.
  transfers: () => true,
  uid_transfers: (s) => FINAL_UID_TRANSFER.has(s),
};

interface Source {
  kind: HistoryKind;
  path: WindowedPath;
  query?: QueryPairs;
}

const SOURCES: Source[] = [
  { kind: 'withdrawals', path: '/wallet/withdrawals' },
  { kind: 'deposits', path: '/wallet/deposits' },
  { kind: 'transfers', path: '/wallet/sub_account_transfers' },
  { kind: 'uid_transfers', path: '/wallet/push', query: [['transaction_type', 'withdraw']] },
  { kind: 'uid_transfers', path: '/wallet/push', query: [['transaction_type', 'deposit']] },
];

export interface SyncReport {
  kind: 'cold' | 'warm';
  from: number;
  to: number;
  requests: number;
  newWithdrawals: number;
  newDeposits: number;
  changes: Change[];
  /** Records refused by the shape check (a reason each), never stored. */
  rejected: string[];
}

export interface TrackReport {
  requests: number;
  /** Ids whose status changed, with the new status. */
  changed: Array<{ id: string; status: string }>;
  stillUnfinished: number;
  changes: Change[];
}

export interface HistoryCacheOptions {
  client: ApiClient;
  /** The cache itself; or `dir`, where `history.sqlite` is opened. */
  db?: HistoryDb;
  dir?: string;
  /** Server-clock Unix seconds (default: the client's learned server clock). */
  nowSec?: () => number;
  horizonDays?: number;
  /** A warm sync starts this long before the last one ended: a record can become visible a little after its own timestamp (s; default 600). */
  overlapSec?: number;
  priority?: Priority;
  /** Which lists to read (default: all four). */
  kinds?: HistoryKind[];
  /** Backoff of the checks of records that are not final (ms). */
  checkBaseMs?: number;
  checkMaxMs?: number;
  /** Called after each committed window (the crash tests kill the process here). */
  onWindowCommitted?: (kind: HistoryKind, to: number) => void;
}

/** Opens the cache file; a file SQLite cannot read is kept aside (never deleted) and a new one started. */
export function openHistoryDb(path: string, log?: (line: string) => void): HistoryDb {
  try {
    return new HistoryDb({ path });
  } catch (e) {
    const code = (e as { code?: string }).code;
    if (code !== 'SQLITE_NOTADB' && code !== 'SQLITE_CORRUPT') throw e;
    const aside = `${path}.damaged-${Date.now()}`;
    renameSync(path, aside);
    for (const ext of ['-wal', '-shm']) if (existsSync(path + ext)) renameSync(path + ext, aside + ext);
    log?.(`[core] the history cache could not be read (${code}); kept as ${aside}, starting a new one`);
    return new HistoryDb({ path });
  }
}

export class HistoryCache {
  readonly db: HistoryDb;

  constructor(private readonly opts: HistoryCacheOptions) {
    if (opts.db) this.db = opts.db;
    else if (opts.dir) this.db = openHistoryDb(join(opts.dir, 'history.sqlite'));
    else throw new Error('HistoryCache needs a db or a dir');
  }

  private now(): number {
    return Math.floor(this.opts.nowSec ? this.opts.nowSec() : this.opts.client.clock.nowMs() / 1000);
  }

  private get priority(): Priority {
    return this.opts.priority ?? 'background';
  }

  get syncedTo(): number | null {
    const v = this.db.getMeta('synced_to');
    return v === null ? null : Number(v);
  }

  /** When this desk began watching the profile (its first sync): older history is the baseline. */
  get watchingSince(): number | null {
    const v = this.db.getMeta('watching_since');
    return v === null ? null : Number(v);
  }

  /** Newest first (tests and small lists; the pages use db.page). */
  withdrawals(): Array<Record<string, string>> {
    return this.db
      .since('withdrawals', -1)
      .reverse()
      .map((r) => r.wire);
  }

  deposits(): Array<Record<string, string>> {
    return this.db
      .since('deposits', -1)
      .reverse()
      .map((r) => r.wire);
  }

  unfinishedIds(): string[] {
    return this.db.open('withdrawals').map((r) => r.key);
  }

  async sync(): Promise<SyncReport> {
    const to = this.now();
    const cold = this.syncedTo === null;
    if (this.watchingSince === null) this.db.setMeta('watching_since', String(to));
    const horizon = to - (this.opts.horizonDays ?? 365) * 86_400;
    const overlap = this.opts.overlapSec ?? 600;
    const before = this.opts.client.requestCount;
    const changes: Change[] = [];
    const rejected: string[] = [];
    const kinds = this.opts.kinds ?? ['withdrawals', 'deposits', 'transfers', 'uid_transfers'];
    let from = to;
    await Promise.all(
      SOURCES.map((s, i) => ({ s, i }))
        .filter(({ s }) => kinds.includes(s.kind))
        .map(async ({ s, i }) => {
          const progressKey = `progress:${s.kind}:${i}`;
          const done = this.db.getMeta(progressKey);
          const start = done === null ? horizon : Math.max(horizon, Number(done) - overlap);
          from = Math.min(from, start);
          for (const w of thirtyDayWindows(start, to)) {
            const rows = await readWindow(
              this.opts.client,
              { path: s.path, from: w.from, to: w.to, query: s.query, priority: this.priority },
              w,
            );
            const result = this.db.tx(() => {
              const r = this.db.upsert(s.kind, rows, IS_FINAL[s.kind]);
              this.db.setMeta(progressKey, String(w.to));
              return r;
            });
            changes.push(...result.changes);
            rejected.push(...result.rejected);
            this.opts.onWindowCommitted?.(s.kind, w.to);
          }
        }),
    );
    this.db.setMeta('synced_to', String(to));
    const fresh = (k: HistoryKind) => changes.filter((c) => c.kind === k && c.from === null).length;
    return {
      kind: cold ? 'cold' : 'warm',
      from,
      to,
      requests: this.opts.client.requestCount - before,
      newWithdrawals: fresh('withdrawals'),
      newDeposits: fresh('deposits'),
      changes,
      rejected,
    };
  }

  /**
   * Reads the current record of unfinished withdrawals (with `due`, only those whose backoff has run
   * out). A withdrawal is looked up by id (`withdraw_id`, one request each) unless re-reading a 30-day
   * window around several of them costs fewer requests (floor(n / 1000) + 1 for the n records the
   * cache holds in that window).
   */
  async trackUnfinished(opts: { due?: boolean } = {}): Promise<TrackReport> {
    const nowMs = Date.now();
    const open = this.db.open('withdrawals', opts.due ? nowMs : undefined);
    const before = this.opts.client.requestCount;
    const changes: Change[] = [];
    const note = (rows: unknown[]) =>
      changes.push(...this.db.tx(() => this.db.upsert('withdrawals', rows, isFinalWithdrawalStatus)).changes);
    const now = this.now();
    const tsOf = (r: StoredRow) => Math.floor(r.ts / 1000);
    for (let i = 0; i < open.length;) {
      const start = tsOf(open[i]!);
      const end = Math.min(start + MAX_RANGE_SEC, Math.max(now, start));
      let j = i;
      while (j < open.length && tsOf(open[j]!) <= end) j++;
      const windowCost = Math.floor(this.db.countBetween('withdrawals', start, end) / MAX_LIMIT['/wallet/withdrawals']) + 1;
      if (j - i > windowCost) {
        const [w] = thirtyDayWindows(start, end);
        note(await readWindow(this.opts.client, { path: '/wallet/withdrawals', from: w!.from, to: w!.to, priority: this.priority }, w!));
      } else {
        for (let k = i; k < j; k++) {
          const id = open[k]!.key;
          const rows: unknown = await this.opts.client.request(
            { method: 'GET', path: '/wallet/withdrawals', query: [['withdraw_id', id]], priority: this.priority },
            z.array(Withdrawal),
          );
          if (!Array.isArray(rows))
            throw new NetworkError(`${this.opts.client.origin} answered a withdrawal lookup with something other than a list`);
          note(rows.filter((r) => (r as { id?: unknown })?.id === id));
        }
      }
      i = j;
    }
    this.deferUnchanged('withdrawals', open, changes);
    const changed = changes.filter((c) => c.from !== null).map((c) => ({ id: c.key, status: c.to }));
    return { requests: this.opts.client.requestCount - before, changed, stillUnfinished: this.db.openCount('withdrawals'), changes };
  }

  /** Deposits are refreshed until final (§3.2; shared/api/statuses.ts): their windows are read again. */
  async refreshDeposits(opts: { due?: boolean } = {}): Promise<Change[]> {
    const open = this.db.open('deposits', opts.due ? Date.now() : undefined);
    const changes: Change[] = [];
    const now = this.now();
    for (let i = 0; i < open.length;) {
      const start = Math.floor(open[i]!.ts / 1000);
      const end = Math.min(start + MAX_RANGE_SEC, Math.max(now, start));
      let j = i;
      while (j < open.length && Math.floor(open[j]!.ts / 1000) <= end) j++;
      const w = { from: start, to: end };
      const rows = await readWindow(this.opts.client, { path: '/wallet/deposits', from: w.from, to: w.to, priority: this.priority }, w);
      changes.push(...this.db.tx(() => this.db.upsert('deposits', rows, isFinalDepositStatus)).changes);
      i = j;
    }
    this.deferUnchanged('deposits', open, changes);
    return changes;
  }

  private deferUnchanged(kind: HistoryKind, checked: StoredRow[], changes: Change[]): void {
    const moved = new Set(changes.map((c) => c.key));
    this.db.tx(() => {
      for (const r of checked)
        if (!moved.has(r.key)) this.db.deferCheck(kind, r.key, this.opts.checkBaseMs ?? 5_000, this.opts.checkMaxMs ?? 120_000);
    });
  }

  close(): void {
    this.db.close();
  }
}
