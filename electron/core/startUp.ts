import type { ChannelName } from '../../shared/ipc.ts';

// A host opens the core and listens before the core's start-up work has run (issue 25): opening the
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
  // The Sub-accounts matrix from its last load (valued in steps meanwhile); the load it starts waits.
  'balancesMatrix',
]);

/** A desk no window asks anything of still resumes its unfinished writes, this long after it opened. */
export const START_UP_AT_THE_LATEST_MS = 1_500;

export class StartUp {
  private state: 'waiting' | 'scheduled' | 'done' = 'waiting';
  private readonly done: Promise<void>;
  private resolve: () => void = () => {};
  private readonly timer: ReturnType<typeof setTimeout>;
  /** BEFORE_START_UP reads being answered. */
  private early = 0;

  /** `run`: the start-up work, synchronous; what it starts in the background goes on after it returns. */
  constructor(
    private readonly run: () => void,
    private readonly log: (line: string) => void,
    latestMs = START_UP_AT_THE_LATEST_MS,
  ) {
    this.done = new Promise<void>((r) => (this.resolve = r));
    // Also the bound of a start-up asked while a first read is being answered.
    this.timer = setTimeout(() => this.runNow(), latestMs);
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
    if (this.early === 0) setImmediate(() => this.runNow());
    return this.done;
  }

  /** One of the BEFORE_START_UP reads: a start-up asked meanwhile runs once none is being answered. */
  async answerFirst<T>(read: () => Promise<T>): Promise<T> {
    this.early++;
    try {
      return await read();
    } finally {
      if (--this.early === 0 && this.state === 'scheduled') setImmediate(() => this.runNow());
    }
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

  /** The core closes: the timer goes; a call still waiting is let through to meet the closed core's errors. */
  cancel(): void {
    clearTimeout(this.timer);
    if (this.state !== 'waiting') return;
    this.state = 'done';
    this.resolve();
  }
}
