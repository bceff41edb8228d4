import { describe, expect, it } from 'vitest';
import { clockOf, dateTime, dateTimeToMinute, dayOf, timeOfDay } from './localTime.ts';

// Built from local parts, so that the figures hold in any time zone the tests run in.
const at = new Date(2026, 0, 5, 9, 7, 3).getTime();

describe('times as the desk shows them', () => {
  it('are local, year first, 24-hour, zero-padded', () => {
    expect(dayOf(at)).toBe('2026-01-05');
    expect(timeOfDay(at)).toBe('09:07:03');
    expect(dateTime(at)).toBe('2026-01-05 09:07:03');
    expect(dateTimeToMinute(at)).toBe('2026-01-05 09:07');
    expect(timeOfDay(new Date(2026, 0, 5, 23, 59, 59).getTime())).toBe('23:59:59');
  });

  it('say only the time on the same day, and the day too on another', () => {
    expect(clockOf(at, new Date(2026, 0, 5, 18, 0).getTime())).toBe('09:07');
    expect(clockOf(at, new Date(2026, 0, 6, 0, 1).getTime())).toBe('2026-01-05 09:07');
  });
});
