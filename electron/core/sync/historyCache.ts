import { mkdir, open, readFile, rename, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { isFinalWithdrawalStatus } from '../../../shared/api/statuses.ts';
import type { Priority } from '../client/client.ts';
import { z } from 'zod';
import { Deposit, listOf, Withdrawal } from '../../../shared/api/records.ts';
import type { RecordReader } from './pagination.ts';
import { MAX_LIMIT, MAX_RANGE_SEC, thirtyDayWindows, windowedRecords } from './windows.ts';

// The year of withdrawals and deposits is read once (cold); later syncs read only what is new since the
// last one (warm), from a little before it, in one window per kind while less than 30 days have passed.
// Withdrawals that were not final are followed by id, so that warm syncs need not re-read old windows to
// see them finish.

export type WireRecord = Withdrawal | Deposit;

// The file is checked like an answer: someone who can write the data folder must not put a record
// the exchange never sent, in a shape the desk does not expect, in front of the operator.
const HistoryFile = z.object({
  version: z.literal(1),
  /** Server time (Unix seconds) up to which both lists were read. */
  syncedTo: z.number().nullable(),
  withdrawals: z.record(z.string(), Withdrawal),
  deposits: z.record(z.string(), Deposit),
});
type HistoryFile = z.infer<typeof HistoryFile>;

export interface SyncReport {
  kind: 'cold' | 'warm';
  from: number;
  to: number;
  requests: number;
  newWithdrawals: number;
  newDeposits: number;
}

export interface TrackReport {
  requests: number;
  /** Ids whose status changed, with the new status. */
  changed: Array<{ id: string; status: string }>;
  stillUnfinished: number;
}

export interface HistoryCacheOptions {
  /** The signed call it reads through (in the core: the one that also corrects the profile's permissions). */
  reader: RecordReader;
  /** The profile's data folder. */
  dir: string;
  file?: string;
  /** Server-clock Unix seconds. */
  nowSec: () => number;
  horizonDays?: number;
  /**
   * A warm sync starts this long before the last one ended: a record can become visible a little after
   * its own timestamp (seconds; default 600).
   */
  overlapSec?: number;
  priority?: Priority;
}

const EMPTY: HistoryFile = { version: 1, syncedTo: null, withdrawals: {}, deposits: {} };

function tsOf(r: WireRecord): number {
  const t = Number(r.timestamp);
  return Number.isFinite(t) ? t : 0;
}

export class HistoryCache {
  private data: HistoryFile = structuredClone(EMPTY);
  private loaded = false;
  private readonly path: string;
  /** Requests sent through this cache, for its reports. */
  private sent = 0;
  private readonly reader: RecordReader;

  constructor(private readonly opts: HistoryCacheOptions) {
    this.path = join(opts.dir, opts.file ?? 'history.json');
    this.reader = { request: (req, schema) => { this.sent++; return opts.reader.request(req, schema); } };
  }

  private now(): number {
    return Math.floor(this.opts.nowSec());
  }

  async load(): Promise<void> {
    if (this.loaded) return;
    try {
      const parsed = HistoryFile.safeParse(JSON.parse(await readFile(this.path, 'utf8')));
      if (parsed.success) this.data = parsed.data;
    } catch (e) {
      // No file yet, or a file this version cannot read: start cold rather than fail.
      if ((e as NodeJS.ErrnoException).code !== 'ENOENT' && !(e instanceof SyntaxError)) throw e;
    }
    this.loaded = true;
  }

  get syncedTo(): number | null {
    return this.data.syncedTo;
  }

  /** Newest first. */
  withdrawals(): Withdrawal[] {
    return Object.values(this.data.withdrawals).sort((a, b) => tsOf(b) - tsOf(a));
  }

  deposits(): Deposit[] {
    return Object.values(this.data.deposits).sort((a, b) => tsOf(b) - tsOf(a));
  }

  unfinishedIds(): string[] {
    return Object.values(this.data.withdrawals).filter((r) => !isFinalWithdrawalStatus(r.status)).map((r) => r.id);
  }

  async sync(): Promise<SyncReport> {
    await this.load();
    const to = this.now();
    const cold = this.data.syncedTo === null;
    const horizon = to - (this.opts.horizonDays ?? 365) * 86_400;
    const from = cold ? horizon : Math.max(horizon, this.data.syncedTo! - (this.opts.overlapSec ?? 600));
    const before = this.sent;
    const [newWithdrawals, newDeposits] = await Promise.all([
      this.readInto('/wallet/withdrawals', this.data.withdrawals, from, to),
      this.readInto('/wallet/deposits', this.data.deposits, from, to),
    ]);
    this.data.syncedTo = to;
    await this.save();
    return { kind: cold ? 'cold' : 'warm', from, to, requests: this.sent - before, newWithdrawals, newDeposits };
  }

  private async readInto(path: '/wallet/withdrawals' | '/wallet/deposits', into: Record<string, WireRecord>, from: number, to: number): Promise<number> {
    let added = 0;
    for await (const r of windowedRecords(this.reader, { path, from, to, priority: this.opts.priority ?? 'background' })) {
      if (!into[r.id]) added++;
      into[r.id] = r;
    }
    return added;
  }

  /**
   * Reads the current record of every unfinished withdrawal. A withdrawal is looked up by id
   * (`withdraw_id`, one request each) unless re-reading a 30-day window around several of them costs
   * fewer requests (floor(n / 1000) + 1 for the n records the cache holds in that window).
   */
  async trackUnfinished(): Promise<TrackReport> {
    await this.load();
    const open = Object.values(this.data.withdrawals).filter((r) => !isFinalWithdrawalStatus(r.status)).sort((a, b) => tsOf(a) - tsOf(b));
    const all = Object.values(this.data.withdrawals).map(tsOf).sort((a, b) => a - b);
    const before = this.sent;
    const changed: TrackReport['changed'] = [];
    const note = (r: Withdrawal): void => {
      const old = this.data.withdrawals[r.id];
      if (old && old.status !== r.status) changed.push({ id: r.id, status: r.status });
      this.data.withdrawals[r.id] = r;
    };
    const now = this.now();
    for (let i = 0; i < open.length; ) {
      const start = Math.floor(tsOf(open[i]!));
      const end = Math.min(start + MAX_RANGE_SEC, Math.max(now, start));
      let j = i;
      while (j < open.length && tsOf(open[j]!) <= end) j++;
      const inWindow = countBetween(all, start, end);
      const windowCost = Math.floor(inWindow / MAX_LIMIT['/wallet/withdrawals']) + 1;
      if (j - i > windowCost) {
        const [w] = thirtyDayWindows(start, end);
        for await (const r of windowedRecords(this.reader, { path: '/wallet/withdrawals', from: w!.from, to: w!.to, priority: this.opts.priority ?? 'background' })) note(r);
      } else {
        for (let k = i; k < j; k++) {
          const id = open[k]!.id;
          const rows = await this.reader.request({ method: 'GET', path: '/wallet/withdrawals', query: [['withdraw_id', id]], priority: this.opts.priority ?? 'background' }, listOf(Withdrawal));
          const found = rows.find((r) => r.id === id);
          if (found) note(found);
        }
      }
      i = j;
    }
    await this.save();
    return { requests: this.sent - before, changed, stillUnfinished: this.unfinishedIds().length };
  }

  /** Written to a temporary file and renamed over the old one, so a crash leaves the old file or the new one. */
  private async save(): Promise<void> {
    await mkdir(this.opts.dir, { recursive: true });
    const tmp = `${this.path}.${process.pid}.${Date.now()}.tmp`;
    const fh = await open(tmp, 'w', 0o600);
    try {
      await fh.writeFile(JSON.stringify(this.data));
      await fh.sync();
    } finally {
      await fh.close();
    }
    try {
      await rename(tmp, this.path);
    } catch (e) {
      await rm(tmp, { force: true });
      throw e;
    }
  }
}

/** How many sorted values fall in [lo, hi]. */
function countBetween(sorted: number[], lo: number, hi: number): number {
  const bound = (x: number, strict: boolean): number => {
    let a = 0;
    let b = sorted.length;
    while (a < b) {
      const m = (a + b) >> 1;
      if (strict ? sorted[m]! <= x : sorted[m]! < x) a = m + 1;
      else b = m;
    }
    return a;
  };
  return bound(hi, true) - bound(lo, false);
}
