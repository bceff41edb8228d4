import { describe, expect, it } from 'vitest';
import { KEPT_FRESH_BY_EVENTS, STALE_AFTER_WRITE, STALE_ON_EVENT, WRITTEN_BY_ANSWER, WRITTEN_BY_EVENT } from './ipcStale.ts';

describe('KEPT_FRESH_BY_EVENTS', () => {
  // A read the window never asks for again on its own must be named by something that refreshes it,
  // or it would show its first answer for as long as the window lives.
  it('names only reads that an event or a write makes stale or writes', () => {
    const refreshed = new Set<string>([
      ...Object.values(STALE_ON_EVENT).flat(),
      ...Object.values(WRITTEN_BY_EVENT),
      ...Object.values(STALE_AFTER_WRITE).flat(),
      ...Object.values(WRITTEN_BY_ANSWER),
    ]);
    expect([...KEPT_FRESH_BY_EVENTS].filter((c) => !refreshed.has(c))).toEqual([]);
    expect(KEPT_FRESH_BY_EVENTS.size).toBeGreaterThan(10);
  });
});
