import type { z } from 'zod';
import {
  MATRIX_PAGE_MAX,
  type AlertView,
  type BalanceSettings,
  type LoadStatus,
  type MainBalances,
  type MatrixPage,
  type MatrixQuery,
  type MatrixRow,
  type SubAccountDetail,
} from '../../../shared/balances.ts';
import type { ApiClient, Priority } from '../client/client.ts';
import { conditionsOf } from './alerts.ts';
import { detailOf } from './detail.ts';
import { SubAccountFigures } from './figures.ts';
import { readLastLoad, RECORDS_PER_STEP, saveLastLoad } from './lastLoad.ts';
import { loadSubAccounts, type SubAccountsRaw } from './load.ts';
import { readMainBalances } from './mainAccount.ts';
import { entriesInSteps, OPENING_VIEW, queryRows, valuedInSteps } from './matrix.ts';
import { matrixCsv } from './matrixCsv.ts';
import { TotalSnapshots } from './snapshots.ts';
import { recall, remember, type LastKnown, type LastKnownChannel } from './lastKnown.ts';
import type { BalanceStore } from './store.ts';
import { Prices } from './valuation.ts';
import { toErrorBody } from '../errorBody.ts';

// One profile's balances: the last complete load of every sub-account (the exchange is the source of
// truth and a load is 15 requests for 1,000 sub-accounts), its alerts and total snapshots (in the
// profile's SQLite file), and the auto-refresh timer.
//
// The last complete load is also kept in that file: a new start shows it at once, marked as cached
// (status.source 'cache', fetched_at its time), and the first look at a balances page starts a load
// from the exchange. Cached figures are for reading only: alerts are raised and cleared by exchange
// loads alone, and a transfer form's "available" waits for the exchange's figures (SubAccountDetail.source).

export interface BalancesEvents {
  progress(p: { scope: 'sub_accounts' | 'main'; loaded: number; total: number; done: boolean; error: string | null }): void;
  alert(a: AlertView): void;
}

export interface BalancesServiceOptions {
  /** The active profile's client; a promise while the core's start-up has not run (startUp.ts). */
  client: () => ApiClient | Promise<ApiClient>;
  store: BalanceStore;
  events: BalancesEvents;
  now?: () => number;
  log?: (line: string) => void;
  /**
   * Settles once the window that opened on these figures painted them (startUp.ts): a first ask answered
   * from the kept load starts the load from the exchange then, not while the window draws. None: at once.
   */
  firstPaint?: () => Promise<void>;
  /**
   * Settles once the desk's start-up ran (startUp.ts: after the window's first paint, or its bound): the
   * kept load's reading stops there once the opening view is made. None: it goes on at once.
   */
  startedUp?: () => Promise<void>;
}

/** What the kept load's reading yields where the rest may wait for the start-up (warmUp). */
const AFTER_START_UP = 'after start-up';

type Query = z.output<typeof MatrixQuery>;

/** Runs a generator to its end, one step per turn of the event loop. */
async function stepped<T>(steps: Generator<void, T>): Promise<T> {
  for (;;) {
    const r = steps.next();
    if (r.done) return r.value;
    await new Promise((resolve) => setImmediate(resolve));
  }
}

export class BalancesService {
  private readonly figures = new SubAccountFigures();
  private status: LoadStatus = {
    state: 'empty',
    loaded: 0,
    total: 0,
    fetched_at: null,
    source: null,
    error: null,
    requests: 0,
    unread: [],
  };
  /**
   * Someone looked at balances (a page, a transfer form, Refresh): from then on the exchange is read
   * (the first load, auto-refresh, after money moved). Before that a desk open on another page does not
   * spend the rate budget on figures nobody asked for, cached ones or not.
   */
  private asked = false;
  /** The kept load's reading while it is under way (showCached). */
  private cachedSteps: Generator<void | typeof AFTER_START_UP> | null;
  private loading: Promise<LoadStatus> | null = null;
  /** Money moved while a load ran: that load may have read before the move, so another follows it. */
  private loadAgain = false;
  private timer: ReturnType<typeof setInterval> | null = null;
  private readonly totals: TotalSnapshots;
  private readonly now: () => number;
  private closed = false;

  constructor(private readonly opts: BalancesServiceOptions) {
    this.now = opts.now ?? Date.now;
    this.totals = new TotalSnapshots(opts.store, opts.client, this.now);
    this.schedule();
    this.cachedSteps = this.showCached();
  }

  /** The kept load of an earlier run, when there is one that reads back well: in steps (warmUp), or at once (settle). */
  private *showCached(): Generator<void | typeof AFTER_START_UP> {
    const cached = yield* readLastLoad(this.opts.store, this.now(), (line) => this.opts.log?.(line));
    if (!cached) return;
    const status = {
      ...this.status,
      state: 'ready' as const,
      fetched_at: cached.fetchedAt,
      source: 'cache' as const,
      requests: cached.raw.requests,
      unread: cached.raw.unread,
    };
    if (cached.opening) {
      // The page's first ask is answered from the view kept with the load; the sub-accounts' sums
      // (a sub-account's page, other quotes) follow in steps.
      this.figures.keepOpening(cached.opening, new Prices(cached.raw.tickers));
      this.status = status;
      yield AFTER_START_UP;
    } else yield;
    this.figures.keepEntries(yield* entriesInSteps(cached.raw, RECORDS_PER_STEP), new Prices(cached.raw.tickers));
    this.status = status;
    yield* this.figures.valuing(OPENING_VIEW.quote);
  }

  /**
   * Reads the kept load back and values the matrix in the quote a page opens with, one step per turn of
   * the event loop (what else this process serves meanwhile, the window's files among it, waits for one
   * step at most), so that the page's first ask finds the rows made. Once the opening view kept with the
   * load is read, the rest (the sub-accounts' sums, for a sub-account's page) waits for the desk's
   * start-up: in a new process on two cores its steps, 150-250 ms of a cold processor, ran while the
   * window loaded, and the matrix's answer, written between them, reached the window up to 200 ms late
   * (docs/performance.md §Opening the desk). A page that needs the rest sooner gets it at its ask (settle).
   */
  warmUp(): void {
    const step = () => {
      if (!this.cachedSteps) return;
      const r = this.cachedSteps.next();
      if (r.done) {
        this.cachedSteps = null;
        this.figures.warm();
      } else if (r.value === AFTER_START_UP && this.opts.startedUp) void this.opts.startedUp().then(() => setImmediate(step));
      else setImmediate(step);
    };
    setImmediate(step);
  }

  /**
   * What the kept load's reading has left, done now: a page asks. `enough`: the ask needs no more (the
   * rows in its quote are there); the rest goes on in steps.
   */
  private settle(enough: () => boolean = () => false): void {
    while (this.cachedSteps && !enough()) {
      if (this.cachedSteps.next().done) this.cachedSteps = null;
    }
  }

  close(): void {
    this.closed = true;
    this.cachedSteps = null;
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
    this.opts.store.close();
  }

  settings(): BalanceSettings {
    return this.opts.store.settings();
  }

  saveSettings(s: BalanceSettings): BalanceSettings {
    this.opts.store.saveSettings(s);
    this.schedule();
    this.reevaluate();
    return this.settings();
  }

  private schedule(): void {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
    const sec = this.settings().auto_refresh_seconds;
    if (sec === 0) return;
    this.timer = setInterval(() => void this.autoRefresh(), sec * 1000);
    this.timer.unref?.();
  }

  private async autoRefresh(): Promise<void> {
    // Nothing is loaded until someone opened a balances page: a desk left on the Sandbox does not poll for nobody.
    if (!this.asked) return;
    // The window's own auto-refresh of the total leaves snapshots while it is shown; this one covers the
    // time it is hidden, without doubling the chart's points.
    const snapshotDue = this.totals.due(this.settings().auto_refresh_seconds * 1000);
    try {
      await Promise.all([this.refresh('background'), snapshotDue ? this.totals.take('background') : null]);
    } catch (e) {
      this.opts.log?.(`[balances] auto-refresh failed: ${(e as Error).message}`);
    }
  }

  /** Every fetch of the §2.9 total is kept as a snapshot for the Overview's chart. */
  recordTotal(currency: string, amount: string): void {
    this.totals.record(currency, amount);
  }

  /** Keeps a read's answer for the next start's first paint (lastKnown.ts). */
  remember<C extends LastKnownChannel>(channel: C, request: object, answer: unknown): void {
    remember(this.opts.store, channel, request, answer, this.now());
  }

  lastKnown<C extends LastKnownChannel>(channel: C, request: object): LastKnown<C> | null {
    return recall(this.opts.store, channel, request, this.opts.log);
  }

  snapshots(currency: string, since: number) {
    return this.totals.list(currency, since);
  }

  /** Loads every sub-account's balances; a load already under way is shared, never doubled. */
  refresh(priority: Priority = 'visible'): Promise<LoadStatus> {
    if (this.loading) return this.loading;
    this.asked = true;
    const run = async (): Promise<LoadStatus> => {
      this.status = { ...this.status, state: this.status.fetched_at ? this.status.state : 'loading', loaded: 0, error: null };
      const progress = (loaded: number, total: number) => {
        this.status = { ...this.status, loaded, total };
        this.opts.events.progress({ scope: 'sub_accounts', loaded, total, done: false, error: null });
      };
      try {
        const raw = await loadSubAccounts(await this.opts.client(), priority, progress);
        // Summed and valued a step per turn of the event loop; the page shows what it showed meanwhile.
        const made = await stepped(valuedInSteps(raw, OPENING_VIEW.quote, RECORDS_PER_STEP));
        // The exchange's figures supersede the kept ones, read back or not.
        this.cachedSteps = null;
        this.figures.replace(made);
        this.status = {
          state: 'ready',
          loaded: raw.requests,
          total: raw.requests,
          fetched_at: this.now(),
          source: 'exchange',
          error: null,
          requests: raw.requests,
          unread: raw.unread,
        };
        this.opts.events.progress({ scope: 'sub_accounts', loaded: raw.requests, total: raw.requests, done: true, error: null });
        // The page asks for the matrix as soon as it hears of the end: its view worked out while that ask
        // travels, it finds it made.
        this.figures.warm();
        // Alerts right after the figures are out (a raised one comes as its own event and re-marks the rows).
        await new Promise((r) => setImmediate(r));
        this.reevaluate();
        this.keep(this.status.fetched_at!, raw);
      } catch (e) {
        const { message, detail } = toErrorBody(e);
        this.status = { ...this.status, state: this.status.fetched_at ? 'ready' : 'error', error: message, error_detail: detail ?? null };
        this.opts.events.progress({
          scope: 'sub_accounts',
          loaded: this.status.loaded,
          total: this.status.total,
          done: true,
          error: message,
        });
      }
      return this.status;
    };
    this.loading = run().finally(() => {
      this.loading = null;
      if (this.loadAgain) {
        this.loadAgain = false;
        void this.refresh('visible');
      }
    });
    return this.loading;
  }

  /** A full disk or a locked file costs the next start its quick figures, never this load. */
  private keep(fetchedAt: number, raw: SubAccountsRaw): void {
    try {
      saveLastLoad(this.opts.store, fetchedAt, raw, this.figures.openingView());
    } catch (e) {
      this.opts.log?.(`[balances] could not keep the sub-accounts' figures for the next start: ${(e as Error).message}`);
    }
  }

  /**
   * A sub-account's money moved (a transfer reached the exchange): the figures of the last load are
   * stale, and a transfer form or the matrix would show them as they were, so the sub-accounts are read
   * again (the end of the load is the renderer's signal to refetch). Nothing asked yet: nothing to renew
   * (the first ask reads the exchange anyway).
   */
  moneyMoved(): void {
    if (!this.asked) return;
    if (this.loading) this.loadAgain = true;
    else void this.refresh('visible');
  }

  /** Alerts follow the latest exchange load and the latest settings; figures from the cache neither raise nor clear one. */
  private reevaluate(): void {
    if (this.status.source !== 'exchange') return;
    const store = this.opts.store;
    const conditions = conditionsOf(this.figures.entries, {
      defaultThreshold: this.settings().default_risk_threshold,
      thresholds: store.thresholds(),
      floors: store.floors(),
    });
    const known = new Set(this.figures.entries.map((e) => e.uid));
    for (const a of store.reconcile(conditions, this.now(), (uid) => known.has(uid))) this.opts.events.alert(a);
  }

  /** The rows a page shows, with the alerts standing or unacknowledged on each (a handful, read at each ask). */
  private withAlerts(rows: MatrixRow[]): MatrixRow[] {
    const counts = new Map<string, number>();
    for (const a of this.opts.store.activeAlerts()) counts.set(a.uid, (counts.get(a.uid) ?? 0) + 1);
    return counts.size ? rows.map((r) => (counts.has(r.uid) ? { ...r, alerts: counts.get(r.uid)! } : r)) : rows;
  }

  /**
   * One page of the matrix; the first ask starts a load from the exchange (progress comes as events),
   * and meanwhile the page shows the cached figures when there are some. A cached page whose load failed
   * keeps its figures with the error until Refresh or auto-refresh; with none to show, each ask tries again.
   */
  matrix(q: Query): MatrixPage {
    this.settle(this.figures.valued(q.quote));
    if (!this.asked && this.status.source === 'cache' && this.opts.firstPaint) this.refreshAfterPaint(this.opts.firstPaint());
    else if (!this.asked || (this.status.state === 'error' && !this.loading)) void this.refresh('visible');
    const { all: _all, rows, ...page } = queryRows(this.figures.rowsIn(q.quote), q);
    return { status: this.status, quote: q.quote, offset: q.offset, rows: this.withAlerts(rows), ...page };
  }

  /**
   * The first ask of a start was answered from the kept load: the exchange's load, whose answers are
   * checked and valued in this process (and whose start may run the core's start-up), waits for the
   * window to paint those figures. In a new process it took the processor from that paint (docs/performance.md §Opening the desk).
   */
  private refreshAfterPaint(painted: Promise<void>): void {
    this.asked = true;
    void painted.then(() => {
      if (!this.closed && !this.loading && this.status.source === 'cache') void this.refresh('visible');
    });
  }

  /** The whole filtered matrix as CSV (every row, not one page). */
  exportCsv(q: Query): { filename: string; csv: string; rows: number } {
    this.settle(this.figures.valued(q.quote));
    const viewed = queryRows(this.figures.rowsIn(q.quote), { ...q, offset: 0, limit: MATRIX_PAGE_MAX });
    const stamp = new Date(this.status.fetched_at ?? this.now()).toISOString().replace(/[:.]/g, '-');
    // A file outlives the page that said the figures were not live: its name says it.
    const kind = this.status.source === 'cache' ? 'last-known-' : '';
    return {
      filename: `sub-account-balances-${kind}${q.quote}-${stamp}.csv`,
      csv: matrixCsv(viewed, q.quote),
      rows: viewed.all.length,
    };
  }

  detail(uid: string, quote: string): SubAccountDetail {
    this.settle();
    const e = this.figures.entries.find((x) => x.uid === uid);
    const valued = e ? this.figures.rowsIn(quote).find((r) => r.uid === uid) : undefined;
    const row = valued ? this.withAlerts([valued])[0]! : null;
    if (!this.asked) void this.refresh('visible');
    return detailOf(uid, e, row, this.status, this.opts.store, this.settings().default_risk_threshold);
  }

  setThreshold(uid: string, value: string | null): SubAccountDetail {
    this.opts.store.setThreshold(uid, value);
    this.reevaluate();
    return this.detail(uid, 'USDT');
  }

  setFloor(uid: string, currency: string, floor: string | null): SubAccountDetail {
    this.opts.store.setFloor(uid, currency, floor);
    this.reevaluate();
    return this.detail(uid, 'USDT');
  }

  alerts(): AlertView[] {
    return this.opts.store.activeAlerts();
  }

  acknowledge(id: number): AlertView | null {
    return this.opts.store.acknowledge(id, this.now());
  }

  /** The main account's own accounts, read fresh (the Overview's refresh). */
  async main(quote: string, priority: Priority = 'visible'): Promise<MainBalances> {
    return readMainBalances(await this.opts.client(), quote, priority, this.now);
  }
}
