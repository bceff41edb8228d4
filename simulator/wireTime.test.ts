import { describe, expect, it } from 'vitest';
import { mulberry32 } from '../shared/random.ts';
import { micros, unixText } from './wireTime.ts';

// The header times are written from a cached seconds prefix and a table of digits: whatever the
// value, the text must be what String() writes.

describe('wire times', () => {
  it('writes milliseconds and microseconds as String() does, across seconds and back', () => {
    const rand = mulberry32(25);
    for (let i = 0; i < 20_000; i++) {
      // Mostly near now, in both directions, so that the cached second changes often; some far off.
      const sec = i % 10 === 0 ? rand() * 4e9 : 1_764_000_000 + (rand() - 0.5) * 5;
      const us = Math.round(sec * 1e6);
      const ms = Math.floor(sec * 1000);
      expect(micros(sec)).toBe(String(us));
      expect(unixText(us, 1e6)).toBe(String(us));
      expect(unixText(ms, 1e3)).toBe(String(ms));
    }
  });

  it('keeps the zeros below the second and handles the edges', () => {
    expect(unixText(1_764_000_000_000_007, 1e6)).toBe('1764000000000007');
    expect(unixText(1_764_000_000_040_000, 1e6)).toBe('1764000000040000');
    expect(unixText(1_764_000_000_005, 1e3)).toBe('1764000000005');
    expect(unixText(1_764_000_000_000, 1e3)).toBe('1764000000000');
    for (const n of [0, 7, 999_999, -5, Number.MAX_SAFE_INTEGER + 2]) expect(unixText(n, 1e6)).toBe(String(n));
    expect(micros(0.5)).toBe('500000');
    expect(unixText(1_764_000_000_000.5, 1e3)).toBe('1764000000000.5');
  });
});
