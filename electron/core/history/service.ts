import { join } from 'node:path';
import type { HistoryKind, HistoryStatus } from '../../../shared/history.ts';
import type { HistoryDb } from '../cache/historyDb.ts';
import type { Change } from '../cache/historyDb.ts';
import type { ActiveSession } from '../session.ts';
import { HistoryCache, IS_FINAL, openHistoryDb } from '../sync/historyCache.ts';
import { movementNotices } from './notices.ts';
import { checkOutflows } from './outflows.ts';
import { toErrorBody } from '../errorBody.ts';

// The histories of the active profile, kept in its cache and kept current: a sync when the profile
// opens (cold the first time, warm after), a warm sync every minute, and every withdrawal or deposit
// that is not final checked again with backoff (5 s doubling to 2 min while it does not move), all at
// background priority in the one scheduler, so a person's clicks and the visible page go first.

export interface HistoryEvents {
  changed(e: {
    changes: Array<{ kind: HistoryKind; id: string; status: string; from: string | null }>;
    in_flight: number;
    unsent: number;
  }): void;
  notify(n: { title: string; body: string; tag: string }): void;
}

export interface HistoryServiceOptions {
  /** The desk's data folder: caches live in <dataDir>/cache/<profile>.sqlite. Without it, in memory. */
  dataDir?: string;
  events: HistoryEvents;
  log: (line: string) => void;
  syncEveryMs?: number;
  tickMs?: number;
  /** Longest wait between two checks of a record that does not move (default 2 min). */
  checkMaxMs?: number;
  /** Settles when a profile's first sync may begin (its pages are checked in this process). At once without it. */
  firstSyncAfter?: () => Promise<void>;
}

const SYNC_EVERY_MS = 60_000;
const TICK_MS = 2_000;

/** One profile's cache and the loops that keep it current. */
export class ProfileHistory {
  readonly cache: HistoryCache;
  syncing = false;
  lastError: string | null = null;
  lastErrorDetail: string | null = null;
  private timers: Array<ReturnType<typeof setInterval>> = [];
  private busy: Promise<void> = Promise.resolve();
  private stopped = false;

  constructor(
    readonly session: ActiveSession,
    private readonly opts: HistoryServiceOptions,
  ) {
    const file = opts.dataDir ? join(opts.dataDir, 'cache', `${session.id.replace(/[^A-Za-z0-9_-]/g, '_')}.sqlite`) : ':memory:';
    const db = file === ':memory:' ? openHistoryDb(':memory:') : openHistoryDb(file, opts.log);
    this.cache = new HistoryCache({
      client: session.client,
      db,
      priority: 'background',
      ...(opts.checkMaxMs ? { checkMaxMs: opts.checkMaxMs, checkBaseMs: Math.min(5_000, opts.checkMaxMs) } : {}),
    });
  }

  get db(): HistoryDb {
    return this.cache.db;
  }

  start(): void {
    // The list an operator opens first, read once in the background: its statements compiled and its
    // index pages and length in memory before the window asks for it, not inside the click (docs/performance.md §Long lists).
    const warm = setImmediate(() => {
      if (!this.stopped) this.db.page('withdrawals', {}, { by: 'time', dir: 'desc' }, 100, undefined, 0);
    });
    warm.unref?.();
    const after = this.opts.firstSyncAfter?.();
    if (after) void after.then(() => (this.stopped ? undefined : this.syncNow()));
    else void this.syncNow();
    const sync = setInterval(() => void this.syncNow(), this.opts.syncEveryMs ?? SYNC_EVERY_MS);
    const tick = setInterval(() => void this.track(), this.opts.tickMs ?? TICK_MS);
    for (const t of [sync, tick]) t.unref?.();
    this.timers.push(sync, tick);
  }

  stop(): void {
    this.stopped = true;
    for (const t of this.timers) clearInterval(t);
    this.timers = [];
    // A sync in progress finishes its window; its writes go to a closed file only after stop: wait.
    void this.busy.finally(() => this.cache.close());
  }

  /** One job at a time against the cache: syncs and checks never interleave their reads and writes. */
  private serial(job: () => Promise<void>): Promise<void> {
    const next = this.busy.then(async () => {
      if (this.stopped) return;
      try {
        await job();
        this.lastError = null;
        this.lastErrorDetail = null;
      } catch (e) {
        const body = toErrorBody(e);
        this.lastError = body.message;
        this.lastErrorDetail = body.detail ?? null;
        this.opts.log(`[core] history: ${(e as Error).message}`);
      }
    });
    this.busy = next;
    return next;
  }

  syncNow(): Promise<void> {
    return this.serial(async () => {
      this.syncing = true;
      try {
        const report = await this.cache.sync();
        if (report.rejected.length) this.opts.log(`[core] history: ${report.rejected.length} records refused (${report.rejected[0]})`);
        this.after(report.changes, report.kind === 'cold');
      } finally {
        this.syncing = false;
      }
    });
  }

  private track(): Promise<void> {
    return this.serial(async () => {
      const w = await this.cache.trackUnfinished({ due: true });
      const d = await this.cache.refreshDeposits({ due: true });
      this.after([...w.changes, ...d], false);
    });
  }

  private after(changes: Change[], baseline: boolean): void {
    const since = this.cache.watchingSince;
    const { flagged } = since === null ? { flagged: [] } : checkOutflows(this.db, since, this.session.journal?.intents() ?? []);
    if (!baseline) {
      const notices = movementNotices(changes, (c) => this.db.get(c.kind, c.key), this.session.journal?.intents() ?? []);
      for (const n of notices) this.opts.events.notify(n);
    }
    for (const f of flagged) {
      const w = f.row.wire;
      this.opts.events.notify({
        title: 'Not sent by this desk',
        body:
          f.kind === 'withdrawals'
            ? `Withdrawal ${w.id}: ${w.amount} ${w.currency} to ${w.address} (${w.chain}) has no entry in this desk's journal.`
            : `UID transfer ${w.id}: ${w.amount} ${w.currency} to uid ${w.receive_uid} has no entry in this desk's journal.`,
        tag: `unsent:${f.kind}:${f.row.key}`,
      });
    }
    if (changes.length || flagged.length) {
      this.opts.events.changed({
        changes: changes.slice(0, 500).map((c) => ({ kind: c.kind, id: c.key, status: c.to, from: c.from })),
        in_flight: this.db.openCount('withdrawals'),
        unsent: this.db.unsentCount(),
      });
    }
  }

  /** Records learned outside a sync (the answer to a cancel): stored, checked, told. */
  apply(kind: HistoryKind, rows: unknown[]): void {
    const { changes } = this.db.tx(() => this.db.upsert(kind, rows, IS_FINAL[kind]));
    this.after(changes, false);
  }

  /** The counts changed without a record changing (an outflow acknowledged). */
  changedCounts(): void {
    this.opts.events.changed({ changes: [], in_flight: this.db.openCount('withdrawals'), unsent: this.db.unsentCount() });
  }

  status(): HistoryStatus {
    return {
      synced_to: this.cache.syncedTo,
      watching_since: this.cache.watchingSince,
      syncing: this.syncing,
      last_error: this.lastError,
      last_error_detail: this.lastErrorDetail,
      in_flight: this.db.openCount('withdrawals'),
      deposits_pending: this.db.openCount('deposits'),
      unsent: this.db.unsentCount(),
    };
  }
}

/** Follows the active profile: a new profile's history opens, the old one's loops stop. */
export class HistoryService {
  private current: ProfileHistory | null = null;

  constructor(private readonly opts: HistoryServiceOptions) {}

  attach(session: ActiveSession | null): void {
    if (this.current && session && this.current.session === session) return;
    this.current?.stop();
    this.current = null;
    if (!session) return;
    this.current = new ProfileHistory(session, this.opts);
    this.current.start();
  }

  /** The active profile's history; the caller has already asked Session.active(), which opened it. */
  of(session: ActiveSession): ProfileHistory {
    this.attach(session);
    return this.current!;
  }

  close(): void {
    this.attach(null);
  }
}
