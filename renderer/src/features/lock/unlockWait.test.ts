import { describe, expect, it } from 'vitest';
import { secondsLeft, waitSentence } from './unlockWait.ts';

describe("the lock screen's wait after failed passphrases", () => {
  it('counts down from when the core answered, rounding up', () => {
    expect(secondsLeft(2000, 10_000, 10_000)).toBe(2);
    expect(secondsLeft(2000, 10_000, 10_001)).toBe(2);
    expect(secondsLeft(2000, 10_000, 11_000)).toBe(1);
    expect(secondsLeft(2000, 10_000, 12_000)).toBe(0);
    expect(secondsLeft(0, 10_000, 10_000)).toBe(0);
  });

  it('says how long to wait, and nothing once the wait is over', () => {
    expect(waitSentence(0)).toBeNull();
    expect(waitSentence(8)).toBe('Too many wrong passphrases. Wait 8 s before the next try.');
    expect(waitSentence(900)).toBe('Too many wrong passphrases. Wait 15 min before the next try.');
    expect(waitSentence(61)).toBe('Too many wrong passphrases. Wait 1 min 1 s before the next try.');
  });
});
