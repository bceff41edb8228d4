import type { Timer } from '../time.ts';

// Virtual time for tests: nothing sleeps; timers run in time order when the test drives them.

interface Pending {
  at: number;
  seq: number;
  fn: () => void;
}

function flushMicrotasks(): Promise<void> {
  return new Promise((resolve) => setImmediate(resolve));
}

export class FakeTime implements Timer {
  private t: number;
  private seq = 0;
  private pending: Pending[] = [];

  constructor(start = Date.UTC(2026, 0, 15, 12, 0, 0)) {
    this.t = start;
  }

  now(): number {
    return this.t;
  }

  setTimeout(fn: () => void, ms: number): unknown {
    const p: Pending = { at: this.t + Math.max(0, ms), seq: this.seq++, fn };
    this.pending.push(p);
    return p;
  }

  clearTimeout(handle: unknown): void {
    this.pending = this.pending.filter((p) => p !== handle);
  }

  /** Runs timers in time order until `work` settles; fails if it waits on a timer that will never come. */
  async run<T>(work: Promise<T>, maxVirtualMs = 3_600_000): Promise<T> {
    let settled = false;
    const guarded = work.finally(() => {
      settled = true;
    });
    guarded.catch(() => undefined);
    const deadline = this.t + maxVirtualMs;
    for (;;) {
      await flushMicrotasks();
      if (settled) return guarded;
      this.pending.sort((a, b) => a.at - b.at || a.seq - b.seq);
      const next = this.pending.shift();
      if (!next) throw new Error('FakeTime: the work waits, but no timer is pending');
      if (next.at > deadline) throw new Error(`FakeTime: still not done after ${maxVirtualMs} virtual ms`);
      this.t = Math.max(this.t, next.at);
      next.fn();
    }
  }

  /** Moves time forward, running every timer due on the way. */
  async advance(ms: number): Promise<void> {
    const end = this.t + ms;
    for (;;) {
      await flushMicrotasks();
      this.pending.sort((a, b) => a.at - b.at || a.seq - b.seq);
      const next = this.pending[0];
      if (!next || next.at > end) break;
      this.pending.shift();
      this.t = Math.max(this.t, next.at);
      next.fn();
    }
    this.t = end;
    await flushMicrotasks();
  }
}
