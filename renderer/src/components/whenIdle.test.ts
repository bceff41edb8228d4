import { afterEach, describe, expect, it } from 'vitest';
import { holdIdleWork, whenIdle } from './whenIdle.ts';

// Work nobody waits for (the Overview's charts) runs when the window is idle; the window is also idle
// while it waits for the next page's code and figures, and that work must not take that time.

const idle = () => new Promise((r) => setTimeout(r, 20));

describe('work at idle time', () => {
  afterEach(() => holdIdleWork(false));

  it('waits while the window moves to another page, and runs once it is there', async () => {
    const ran: string[] = [];
    whenIdle(() => ran.push('before'));
    await idle();
    expect(ran).toEqual(['before']);

    holdIdleWork(true);
    whenIdle(() => ran.push('chart'));
    const cancel = whenIdle(() => ran.push('left page'));
    await idle();
    await idle();
    expect(ran).toEqual(['before']);
    // The page that asked for it was left meanwhile: its piece never runs.
    cancel();
    holdIdleWork(false);
    await idle();
    await idle();
    expect(ran).toEqual(['before', 'chart']);
  });
});
