import { describe, expect, it } from 'vitest';
import { RateLimiter } from './limits.ts';

function fakeTime(start = 1_700_000_000_000) {
  let t = start;
  return {
    now: () => t,
    advance: (ms: number) => {
      t += ms;
    },
  };
}

describe('RateLimiter (rolling window, fake time)', () => {
  it('allows N requests in the window and refuses the next, with the time the oldest leaves', () => {
    const time = fakeTime();
    const l = new RateLimiter(time.now);
    const seen = [];
    for (let i = 0; i < 3; i++) {
      seen.push(l.check('u1|b', 3, 10));
      time.advance(1000);
    }
    expect(seen.map((d) => [d.allowed, d.remain])).toEqual([
      [true, 2],
      [true, 1],
      [true, 0],
    ]);
    const refused = l.check('u1|b', 3, 10);
    expect(refused).toEqual({ allowed: false, limit: 3, remain: 0, resetMs: 1_700_000_000_000 + 10_000 });
  });

  it('is a rolling window, not a fixed one: capacity returns one request at a time', () => {
    const time = fakeTime();
    const l = new RateLimiter(time.now);
    l.check('k', 2, 10); // t=0
    time.advance(6000);
    l.check('k', 2, 10); // t=6s
    time.advance(3999); // t=9.999s: both still inside
    expect(l.check('k', 2, 10).allowed).toBe(false);
    time.advance(1); // t=10s: the first is exactly W old and out of (now-W, now]
    const d = l.check('k', 2, 10);
    expect(d.allowed).toBe(true);
    expect(d.remain).toBe(0);
    expect(l.check('k', 2, 10).allowed).toBe(false); // the one at 6s still counts
    time.advance(6000);
    expect(l.check('k', 2, 10).allowed).toBe(true);
  });

  it('refused requests do not use the budget', () => {
    const time = fakeTime();
    const l = new RateLimiter(time.now);
    expect(l.check('w', 1, 3).allowed).toBe(true);
    for (let i = 0; i < 20; i++) {
      time.advance(100);
      expect(l.check('w', 1, 3).allowed).toBe(false);
    }
    time.advance(1000); // 3.0 s after the admitted one
    expect(l.check('w', 1, 3).allowed).toBe(true);
  });

  it('keeps buckets apart', () => {
    const l = new RateLimiter(fakeTime().now);
    expect(l.check('uid1|POST /withdrawals', 1, 3).allowed).toBe(true);
    expect(l.check('uid2|POST /withdrawals', 1, 3).allowed).toBe(true);
    expect(l.check('uid1|POST /withdrawals', 1, 3).allowed).toBe(false);
  });

  it('counts nothing and refuses nothing when disabled, and reports the full budget', () => {
    const time = fakeTime();
    const l = new RateLimiter(time.now, false);
    for (let i = 0; i < 50; i++) expect(l.check('x', 1, 3)).toEqual({ allowed: true, limit: 1, remain: 1, resetMs: time.now() });
    expect(l.bucketCount).toBe(0);
  });

  it('forgets idle buckets so that many callers do not grow it', () => {
    const time = fakeTime();
    const l = new RateLimiter(time.now);
    for (let i = 0; i < 1000; i++) l.check(`ip:${i}|b`, 200, 10);
    expect(l.bucketCount).toBe(1000);
    time.advance(61_000);
    l.check('fresh', 200, 10);
    expect(l.bucketCount).toBe(1);
  });

  it('never admits more than N in any window, under a random arrival pattern', () => {
    const time = fakeTime();
    const l = new RateLimiter(time.now);
    const admitted: number[] = [];
    let seed = 7;
    for (let i = 0; i < 5000; i++) {
      seed = (seed * 1103515245 + 12345) % 2 ** 31;
      time.advance(seed % 50);
      if (l.check('b', 80, 10).allowed) admitted.push(time.now());
    }
    for (let i = 80; i < admitted.length; i++) expect(admitted[i]! - admitted[i - 80]!).toBeGreaterThanOrEqual(10_000);
    expect(admitted.length).toBeGreaterThan(80);
  });
});
