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
    await read;
    // The window that asked that read has not painted it yet.
    await turn();
    await turn();
    expect(seen).toEqual(['last known total']);
    startUp.windowPainted();
    await Promise.all([started, again]);
    expect(seen).toEqual(['last known total', 'start-up']);
    expect(startUp.started).toBe(true);
  });

  it("waits for the window's first paint at most its bound, and not at all when no window asked", async () => {
    const seen: string[] = [];
    const held = new StartUp(
      () => seen.push('held'),
      () => {},
      60_000,
      20,
    );
    await held.answerFirst(async () => 'profile');
    let painted = false;
    void held.firstPaint().then(() => (painted = true));
    const run = held.begin();
    await turn();
    await turn();
    expect([seen, painted]).toEqual([[], false]);
    await run;
    expect([seen, painted]).toEqual([['held'], true]);

    const free = new StartUp(
      () => seen.push('free'),
      () => {},
      60_000,
      60_000,
    );
    await free.firstPaint();
    await free.begin();
    expect(seen).toEqual(['held', 'free']);
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
