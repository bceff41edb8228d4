import type { BucketRef, RateScope } from '../../../shared/api/rateLimits.ts';
import { realTimer, type Timer } from './time.ts';

// One scheduler for every request the desk sends (§8.2). Each bucket is a rolling window: a request may
// leave when fewer than `limit` requests of its bucket were sent in the last `window`. The server counts
// a request when it arrives, which is somewhere between our send and our receipt of the answer, so a
// slot is dated by the moment its answer came back (or failed): the window is then measured from an
// instant that is never earlier than the server's, and the next request cannot be counted in it.

export type Priority = 'action' | 'visible' | 'background';
const RANK: Record<Priority, number> = { action: 0, visible: 1, background: 2 };

/** What a response said about its bucket (§4.3 headers), already on the local clock. */
export interface Feedback {
  limit?: number;
  remain?: number;
  /** Local epoch ms at which the server says the limit resets (meaningful when exceeded). */
  resetAt?: number;
  /** The answer was a 429. */
  tooMany?: boolean;
}

export interface BucketState {
  key: string;
  rule: string;
  scope: RateScope;
  limit: number;
  windowSec: number;
  queued: number;
  inFlight: number;
  /** Requests counted in the current window (ours, and others' that the headers revealed). */
  used: number;
  /** Requests the window still allows now. */
  remaining: number;
  /** Local epoch ms until which the bucket is paused, or null. */
  pausedUntil: number | null;
  /** Why it is paused: a 429, or headers that said the budget is spent. */
  pauseReason: PauseReason | null;
}

export type PauseReason = 'too_many_requests' | 'budget_spent';

export interface SchedulerOptions {
  timer?: Timer;
  /** Requests in flight over all buckets (default 8). */
  maxInFlight?: number;
  /** No rate limiting at all: only for Sandbox profiles started with limits off, in tests. */
  limitsOff?: boolean;
  /** Added to every window for timer granularity and rounding at the server; the round trip is margin already, since a slot is dated by its answer (default 5 ms). */
  safetyMs?: number;
  /** Called with the buckets in use whenever that picture changes (an empty list when all is idle). */
  onState?: (busy: BucketState[]) => void;
}

export interface Ticket {
  /** Must be called exactly once, when the answer (or the failure) is in. */
  release(feedback?: Feedback): void;
}

interface Slot {
  /** Dispatch order within the bucket. */
  seq: number;
  sentAt: number;
  /** Requests in the window when this one left, itself included (ours and others' that we know of). */
  usedAtSend: number;
  /** null while the request is in flight. */
  doneAt: number | null;
}

interface Waiter {
  rank: number;
  seq: number;
  grant: (t: Ticket) => void;
}

class Bucket {
  readonly slots: Slot[] = [];
  /** Requests the server counted that were not ours (another program on the same key, the web console). */
  phantoms: number[] = [];
  readonly queue: Waiter[] = [];
  pausedUntil = 0;
  pauseReason: PauseReason | null = null;
  limit: number;
  /**
   * False until an answer came back. Until then one request goes alone, so that a budget another program
   * already spent shows in its headers before a whole burst runs into 429s.
   */
  informed = false;
  dispatched = 0;
  readonly windowMs: number;

  constructor(
    readonly key: string,
    readonly ref: BucketRef,
  ) {
    this.limit = ref.rule.limit;
    this.windowMs = ref.rule.windowSec * 1000;
  }

  prune(now: number, safety: number): void {
    const horizon = now - this.windowMs - safety;
    for (let i = this.slots.length - 1; i >= 0; i--) {
      const s = this.slots[i]!;
      if (s.doneAt !== null && s.doneAt <= horizon) this.slots.splice(i, 1);
    }
    if (this.phantoms.length) this.phantoms = this.phantoms.filter((t) => t > horizon);
  }

  used(): number {
    return this.slots.length + this.phantoms.length;
  }

  inFlight(): number {
    let n = 0;
    for (const s of this.slots) if (s.doneAt === null) n++;
    return n;
  }

  /** Earliest local ms at which one more request fits (Infinity: only an in-flight answer can free a slot). */
  opensAt(now: number, safety: number, limitsOff: boolean): number {
    const paused = this.pausedUntil > now ? this.pausedUntil : now;
    if (limitsOff) return paused;
    if (!this.informed && this.slots.length > 0) return Infinity;
    if (this.used() < this.limit) return paused;
    const expiries: number[] = [];
    for (const s of this.slots) if (s.doneAt !== null) expiries.push(s.doneAt + this.windowMs + safety);
    for (const t of this.phantoms) expiries.push(t + this.windowMs + safety);
    // The (used - limit + 1)-th oldest expiry is when enough slots have left the window.
    expiries.sort((a, b) => a - b);
    const need = this.used() - this.limit;
    const at = expiries[need];
    return at === undefined ? Infinity : Math.max(at, paused);
  }

  /** When the oldest finished request leaves the window (Infinity: none will). */
  nextExpiry(safety: number): number {
    let at = Infinity;
    for (const s of this.slots) if (s.doneAt !== null) at = Math.min(at, s.doneAt + this.windowMs + safety);
    for (const t of this.phantoms) at = Math.min(at, t + this.windowMs + safety);
    return at;
  }

  enqueue(w: Waiter): void {
    let i = this.queue.length;
    while (i > 0 && this.queue[i - 1]!.rank > w.rank) i--;
    this.queue.splice(i, 0, w);
  }
}

export class Scheduler {
  private readonly timer: Timer;
  private readonly maxInFlight: number;
  private readonly safety: number;
  private readonly buckets = new Map<string, Bucket>();
  private inFlight = 0;
  private seq = 0;
  private wake: { at: number; handle: unknown } | null = null;
  private lastEmitted = '';

  constructor(private readonly opts: SchedulerOptions = {}) {
    this.timer = opts.timer ?? realTimer;
    this.maxInFlight = opts.maxInFlight ?? 8;
    this.safety = opts.safetyMs ?? 5;
  }

  get limitsOff(): boolean {
    return this.opts.limitsOff ?? false;
  }

  /**
   * Waits until the bucket's window, its pause and the in-flight cap allow one more request, then hands
   * out a ticket. `account` scopes UID buckets (one budget per account); IP buckets are shared by all.
   */
  acquire(ref: BucketRef, account: string, priority: Priority): Promise<Ticket> {
    const key = ref.rule.scope === 'ip' ? `ip|${ref.key}` : `${account}|${ref.key}`;
    let b = this.buckets.get(key);
    if (!b) {
      b = new Bucket(key, ref);
      this.buckets.set(key, b);
    }
    const bucket = b;
    return new Promise<Ticket>((grant) => {
      bucket.enqueue({ rank: RANK[priority], seq: this.seq++, grant });
      this.pump();
    });
  }

  /**
   * The buckets in use, as the listener receives them: anything sent in the current window, queued, in
   * flight or paused. A bucket leaves the picture when its window has emptied, not when its queue has:
   * a budget 79 of 80 spent is news to the operator even with nothing waiting.
   */
  snapshot(): BucketState[] {
    const now = this.timer.now();
    const out: BucketState[] = [];
    for (const b of this.buckets.values()) {
      b.prune(now, this.safety);
      const inFlight = b.inFlight();
      const paused = b.pausedUntil > now;
      const used = this.limitsOff ? inFlight : b.used();
      if (!b.queue.length && !inFlight && !paused && used === 0) continue;
      out.push({
        key: b.key,
        rule: b.ref.rule.id,
        scope: b.ref.rule.scope,
        limit: b.limit,
        windowSec: b.ref.rule.windowSec,
        queued: b.queue.length,
        inFlight,
        used,
        remaining: this.limitsOff ? b.limit : Math.max(0, b.limit - b.used()),
        pausedUntil: paused ? b.pausedUntil : null,
        pauseReason: paused ? b.pauseReason : null,
      });
    }
    return out;
  }

  private pump(): void {
    const now = this.timer.now();
    for (;;) {
      if (this.inFlight >= this.maxInFlight) break;
      let best: Bucket | undefined;
      for (const b of this.buckets.values()) {
        const head = b.queue[0];
        if (!head) continue;
        b.prune(now, this.safety);
        if (b.opensAt(now, this.safety, this.limitsOff) > now) continue;
        const cur = best?.queue[0];
        if (!cur || head.rank < cur.rank || (head.rank === cur.rank && head.seq < cur.seq)) best = b;
      }
      if (!best) break;
      this.dispatch(best, now);
    }
    this.armWake(now);
    this.emit();
  }

  private dispatch(b: Bucket, now: number): void {
    const waiter = b.queue.shift()!;
    const slot: Slot = { seq: b.dispatched++, sentAt: now, usedAtSend: b.used() + 1, doneAt: null };
    b.slots.push(slot);
    this.inFlight++;
    let released = false;
    waiter.grant({
      release: (fb) => {
        if (released) return;
        released = true;
        this.inFlight--;
        this.settle(b, slot, fb ?? {});
        this.pump();
      },
    });
  }

  private settle(b: Bucket, slot: Slot, fb: Feedback): void {
    const now = this.timer.now();
    slot.doneAt = now;
    b.informed = true;
    // With limits off (a Sandbox started without them) the headers describe nothing we keep; a 429 still pauses.
    const counting = !this.limitsOff;
    if (counting && fb.limit !== undefined && Number.isInteger(fb.limit) && fb.limit > 0) b.limit = fb.limit;
    if (counting && fb.remain !== undefined && Number.isInteger(fb.remain) && fb.remain >= 0) {
      // What the server had counted when this request arrived, against what it may have counted of ours:
      // the window as it stood when this one left (slots that expired while it was out were still counted
      // then) and every request sent after it (with several in flight, a later one often arrives first).
      // Comparing with the window at the answer instead took both for another program's requests, and a
      // batch of 400 transfers lost a 10 s window to them.
      const serverUsed = b.limit - fb.remain;
      const ours = slot.usedAtSend + (b.dispatched - 1 - slot.seq);
      const missing = Math.min(serverUsed - ours, b.limit - b.used());
      for (let i = 0; i < missing; i++) b.phantoms.push(now);
    }
    if (fb.tooMany) {
      const until = fb.resetAt !== undefined && fb.resetAt > now ? fb.resetAt : now + b.windowMs;
      b.pausedUntil = Math.max(b.pausedUntil, until + this.safety);
      b.pauseReason = 'too_many_requests';
    } else if (counting && fb.remain === 0 && fb.resetAt !== undefined && fb.resetAt > now) {
      if (b.pausedUntil <= now) b.pauseReason = 'budget_spent';
      b.pausedUntil = Math.max(b.pausedUntil, fb.resetAt + this.safety);
    }
  }

  private armWake(now: number): void {
    let at = Infinity;
    if (this.inFlight < this.maxInFlight) {
      for (const b of this.buckets.values()) {
        if (!b.queue.length) continue;
        at = Math.min(at, b.opensAt(now, this.safety, this.limitsOff));
      }
    }
    // Pauses end and windows empty without any request settling: wake then so the listener sees it.
    for (const b of this.buckets.values()) {
      b.prune(now, this.safety);
      if (b.pausedUntil > now) at = Math.min(at, b.pausedUntil);
      at = Math.min(at, b.nextExpiry(this.safety));
    }
    if (this.wake && this.wake.at === at) return;
    if (this.wake) this.timer.clearTimeout(this.wake.handle);
    this.wake = null;
    if (at === Infinity) return;
    const handle = this.timer.setTimeout(
      () => {
        this.wake = null;
        this.pump();
      },
      Math.max(0, at - now),
    );
    this.wake = { at, handle };
  }

  private emit(): void {
    if (!this.opts.onState) return;
    const busy = this.snapshot();
    const text = JSON.stringify(busy);
    if (text === this.lastEmitted) return;
    this.lastEmitted = text;
    this.opts.onState(busy);
  }
}
