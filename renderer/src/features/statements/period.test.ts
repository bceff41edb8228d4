import { describe, expect, it } from 'vitest';
import { periodOf } from './period.ts';

// Bounds are local midnights of the machine's zone, whatever it is: the cases compare local dates.

describe('a statement period', () => {
  it('takes a month from its first local midnight to the next', () => {
    const p = periodOf({ kind: 'month', start: '2026-02', end: '' }, 'Test/Zone');
    expect(new Date(p.from)).toEqual(new Date(2026, 1, 1));
    expect(new Date(p.to)).toEqual(new Date(2026, 2, 1));
    expect(p.local).toBe('2026-02-01 00:00 to 2026-03-01 00:00 (Test/Zone)');
    expect(p.utc).toBe(`${new Date(2026, 1, 1).toISOString().slice(0, 19)}Z to ${new Date(2026, 2, 1).toISOString().slice(0, 19)}Z`);
  });

  it('takes a custom range with its last day included', () => {
    const p = periodOf({ kind: 'custom', start: '2026-11-28', end: '2026-11-30' }, 'UTC');
    expect(new Date(p.to)).toEqual(new Date(2026, 11, 1));
    expect(new Date(p.from)).toEqual(new Date(2026, 10, 28));
  });

  it('names what is wrong', () => {
    expect(() => periodOf({ kind: 'day', start: '2026-02-30', end: '' }, 'UTC')).toThrow('The day must be a day like 2026-11-30');
    expect(() => periodOf({ kind: 'month', start: '2026-13', end: '' }, 'UTC')).toThrow('The month must be like 2026-11');
    expect(() => periodOf({ kind: 'custom', start: '2026-11-30', end: '2026-11-01' }, 'UTC')).toThrow(
      'The last day is before the first day',
    );
    expect(() => periodOf({ kind: 'custom', start: '2025-01-01', end: '2026-11-01' }, 'UTC')).toThrow(
      'A statement covers at most 366 days',
    );
  });
});
