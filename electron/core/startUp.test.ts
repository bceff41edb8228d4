import { describe, expect, it } from 'vitest';
import { StartUp } from './startUp.ts';

const turn = () => new Promise<void>((r) => setImmediate(r));

describe('the start-up of a core opened by a host', () => {
  it('runs once, after the first reads being answered when it was asked for', async () => {
    const seen: string[] = [];
    const startUp = new StartUp(
      () => seen.push('start-up'),
      () => {},
    );
    let answer: (v: string) => void = () => {};
    const read = startUp.answerFirst(() => new Promise<string>((r) => (answer = r))).then((v) => seen.push(v));
    const started = startUp.begin();
    const again = startUp.begin();
    await turn();
    await turn();
    expect(seen).toEqual([]);
    answer('last known total');
    await Promise.all([started, again, read]);
    expect(seen).toEqual(['last known total', 'start-up']);
    expect(startUp.started).toBe(true);
  });

  it('tells when the window that asked the first reads painted them, waiting at most its bound', async () => {
    const timers: StartUp[] = [];
    const make = (paintLatestMs: number) => {
      const s = new StartUp(
        () => {},
        () => {},
        60_000,
        paintLatestMs,
      );
      timers.push(s);
      return s;
    };
    try {
      // No window asked anything: nothing to wait for.
      await make(60_000).firstPaint();

      const told = make(60_000);
      await told.answerFirst(async () => 'profile');
      let painted = false;
      void told.firstPaint().then(() => (painted = true));
      await turn();
      await turn();
      expect(painted).toBe(false);
      // The start-up itself does not wait for the paint (its waiting calls would hold the window's connections).
      await told.begin();
      expect(painted).toBe(false);
      told.windowPainted();
      await turn();
      expect(painted).toBe(true);

      // The word that the window painted starts the start-up: the operator's first click does not wait for it.
      const seen: string[] = [];
      const idle = new StartUp(
        () => seen.push('start-up'),
        () => {},
        60_000,
        60_000,
      );
      timers.push(idle);
      await idle.answerFirst(async () => 'profile');
      await turn();
      expect(seen).toEqual([]);
      idle.windowPainted();
      await turn();
      await turn();
      expect(seen).toEqual(['start-up']);

      // A window that never says so holds nothing back for longer than the bound.
      const silent = make(20);
      await silent.answerFirst(async () => 'profile');
      await silent.firstPaint();
    } finally {
      for (const s of timers) s.cancel();
    }
  });

  it('runs at the latest after its delay when nothing asks, and not at all once cancelled', async () => {
    const seen: string[] = [];
    const late = new StartUp(
      () => seen.push('late'),
      () => {},
      5,
    );
    const cancelled = new StartUp(
      () => seen.push('cancelled'),
      () => {},
      5,
    );
    cancelled.cancel();
    await late.begin();
    await new Promise((r) => setTimeout(r, 20));
    expect(seen).toEqual(['late']);
    // A call that waited on a cancelled start-up is let through (to meet the closed core's errors).
    await cancelled.begin();
  });

  it('says a failure in its log, and lets the waiting calls meet it themselves', async () => {
    const lines: string[] = [];
    const startUp = new StartUp(
      () => {
        throw new Error('the journal is damaged');
      },
      (l) => lines.push(l),
    );
    await startUp.begin();
    expect(lines).toEqual(["[core] the desk's start-up failed: the journal is damaged"]);
  });
});
