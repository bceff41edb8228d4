import type { ChannelName } from '../../shared/ipc.ts';

// A host opens the core and listens before the core's start-up work has run (docs/performance.md §Opening the desk): opening the
// active profile's journal (its verification and fsyncs), the reconciliation with the exchange, the
// history's database and first sync, the approvals' store. Run at once, that work held the window's first
// files and first reads behind it. Now only the reads below, which read small local files, are answered
// before it; every other channel, and every channel of the confirmation window, waits for it (and a call
// of one starts it), so nothing that writes, signs or approves runs before the journal is open and its
// reconciliation under way (whose own hold keeps the executor from sending until it is done:
// session.ts reconcileHold).

/** What the window's first paint asks for, answered from the desk's own files before the start-up ran. */
export const BEFORE_START_UP: ReadonlySet<ChannelName> = new Set<ChannelName>([
  'lastKnown',
  'profileCurrent',
  'vaultStatus',
  'deskStatus',
  'noticesList',
  'unreadRecords',
  // Said by the window once it painted them (firstPaint below).
  'windowPainted',
  // The Sub-accounts matrix from its last load (valued in steps meanwhile); the load it starts waits.
  'balancesMatrix',
]);

/** A desk no window asks anything of still resumes its unfinished writes, this long after it opened. */
export const START_UP_AT_THE_LATEST_MS = 1_500;

/**
 * The longest the window that asked the first reads holds back the load of kept figures from the exchange
 * for its first paint (firstPaint): a window that never says it painted (its code failed) costs this, no more.
 */
export const FIRST_PAINT_AT_THE_LATEST_MS = 1_000;

/**
 * The start-up work, run once: at the first call that needs it or once the window says it painted its
 * first figures, at the latest START_UP_AT_THE_LATEST_MS after the core opened (then after the window's
 * first paint), never while one of the window's first reads is being answered. Also what the window said
 * of its first paint (windowPainted), which what the start-up sets going in the background waits for
 * (firstPaint: the journal's reconciliation, the history's first sync, the matrix's load of kept figures):
 * on two cores their answers, checked record by record in this process, took the processor from the
 * window's first paint (docs/performance.md §Opening the desk). A call that needs the start-up does not wait for that paint: such calls
 * hold the browser's six connections to the web host, and the window's word that it painted queued behind
 * them until the bound (`npm run bench -- ui`: a page a second late).
 */
export class StartUp {
  private state: 'waiting' | 'scheduled' | 'done' = 'waiting';
  private readonly done: Promise<void>;
  private resolve: () => void = () => {};
  private readonly timer: ReturnType<typeof setTimeout>;
  /** BEFORE_START_UP reads being answered. */
  private early = 0;
  /** none: no window asked its first reads yet; waiting: one did and has not painted them; painted. */
  private window: 'none' | 'waiting' | 'painted' = 'none';
  private readonly paint: Promise<void>;
  private paintedNow: () => void = () => {};
  private paintTimer: ReturnType<typeof setTimeout> | null = null;

  /** `run`: the start-up work, synchronous; what it starts in the background goes on after it returns. */
  constructor(
    private readonly run: () => void,
    private readonly log: (line: string) => void,
    latestMs = START_UP_AT_THE_LATEST_MS,
    private readonly paintLatestMs = FIRST_PAINT_AT_THE_LATEST_MS,
  ) {
    this.done = new Promise<void>((r) => (this.resolve = r));
    this.paint = new Promise<void>((r) => (this.paintedNow = r));
    // Also the bound of a start-up asked while a first read is being answered. A window drawing its first
    // figures is let finish (at most FIRST_PAINT_AT_THE_LATEST_MS): nothing asked for this run yet.
    this.timer = setTimeout(() => void this.firstPaint().then(() => this.runNow()), latestMs);
    this.timer.unref?.();
  }

  get started(): boolean {
    return this.state === 'done';
  }

  /**
   * Starts the work, on the next turn of the event loop (the requests already read are answered first),
   * and settles once it ran. Called again, it waits for the same run.
   */
  begin(): Promise<void> {
    if (this.state !== 'waiting') return this.done;
    this.state = 'scheduled';
    this.runWhenFree();
    return this.done;
  }

  /** One of the BEFORE_START_UP reads: a start-up asked meanwhile runs once none is being answered. */
  async answerFirst<T>(read: () => Promise<T>): Promise<T> {
    this.early++;
    if (this.window === 'none') {
      this.window = 'waiting';
      this.paintTimer = setTimeout(() => this.windowPainted(), this.paintLatestMs);
      this.paintTimer.unref?.();
    }
    try {
      return await read();
    } finally {
      this.early--;
      this.runWhenFree();
    }
  }

  /**
   * The window painted its first figures (or said why it could not): what waited for that paint may run,
   * and the start-up runs now, while the operator reads them, rather than inside the first click that
   * needs it (docs/performance.md §Opening the desk: `npm run bench -- ui`, the first Withdrawals page waited 40-90 ms for it).
   */
  windowPainted(): void {
    if (this.paintTimer) clearTimeout(this.paintTimer);
    this.paintTimer = null;
    this.window = 'painted';
    this.paintedNow();
    void this.begin();
  }

  /** Settles once the work ran, without starting it (begin does). */
  ran(): Promise<void> {
    return this.done;
  }

  /** Settles once the window that asked the first reads painted them, at once when no window asked any. */
  firstPaint(): Promise<void> {
    return this.window === 'waiting' ? this.paint : Promise.resolve();
  }

  private runWhenFree(): void {
    if (this.state === 'scheduled' && this.early === 0) setImmediate(() => this.runNow());
  }

  /** Runs the work now, unless it ran (a core made without a host to wait for). */
  runNow(): void {
    if (this.state === 'done') return;
    this.state = 'done';
    clearTimeout(this.timer);
    try {
      this.run();
    } catch (e) {
      // What failed is met again, with its own message, by the calls that need it.
      this.log(`[core] the desk's start-up failed: ${(e as Error).message}`);
    }
    this.resolve();
  }

  /** The core closes: the timers go; a call still waiting is let through to meet the closed core's errors. */
  cancel(): void {
    clearTimeout(this.timer);
    if (this.paintTimer) clearTimeout(this.paintTimer);
    this.paintedNow();
    if (this.state !== 'waiting') return;
    this.state = 'done';
    this.resolve();
  }
}
