import { describe, expect, it } from 'vitest';
import { ApiError } from './errors.ts';
import { Faults, parseFaultSpec } from './faults.ts';

describe('Faults', () => {
  it('fires on every Nth matching request only, and stops after `times`', () => {
    const f = new Faults();
    f.add(parseFaultSpec({ kind: 'error', path: '/withdrawals', method: 'POST', every: 3, times: 2, status: 503, label: 'TOO_BUSY' }));
    const fired = Array.from({ length: 12 }, () => f.planFor('POST', '/withdrawals').error?.status ?? 0);
    expect(fired).toEqual([0, 0, 503, 0, 0, 503, 0, 0, 0, 0, 0, 0]);
    expect(f.planFor('GET', '/withdrawals').error).toBeUndefined();
    expect(f.list()[0]).toMatchObject({ hits: 12, fired: 2 });
  });

  it('draws a seeded rate: the same seed hits the same requests', () => {
    const pattern = (seed: number) => {
      const f = new Faults();
      f.add(parseFaultSpec({ kind: 'drop', path: '/wallet/*', rate: 0.2, seed }));
      return Array.from({ length: 200 }, () => f.planFor('POST', '/wallet/transfers').drop);
    };
    const a = pattern(11);
    expect(pattern(11)).toEqual(a);
    expect(pattern(12)).not.toEqual(a);
    const n = a.filter(Boolean).length;
    expect(n).toBeGreaterThan(20);
    expect(n).toBeLessThan(60);
  });

  it('matches globs on the path below /api/v4 and sums latencies and skews', () => {
    const f = new Faults();
    f.add(parseFaultSpec({ kind: 'latency', path: '*', latency_ms: 5 }));
    f.add(parseFaultSpec({ kind: 'latency', path: '/wallet/*', latency_ms: 7 }));
    f.add(parseFaultSpec({ kind: 'skew', path: '*', skew_sec: 300 }));
    expect(f.planFor('GET', '/wallet/total_balance').latencyMs).toBe(12);
    expect(f.planFor('GET', '/spot/time').latencyMs).toBe(5);
    expect(f.skewFor('GET', '/spot/time')).toBe(300);
    f.clear();
    expect(f.planFor('GET', '/wallet/total_balance')).toEqual({ latencyMs: 0, drop: false, hangMs: 0 });
  });

  it('refuses malformed specs with INVALID_PARAM_VALUE naming the field', () => {
    const bad = [
      {},
      { kind: 'explode', path: '*' },
      { kind: 'error', path: 'wallet' },
      { kind: 'latency', path: '*' },
      { kind: 'drop', path: '*', every: 0 },
      { kind: 'drop', path: '*', rate: 2 },
      { kind: 'drop', path: '*', rate: 0.5, every: 2 },
      { kind: 'error', path: '*', status: 200 },
      { kind: 'skew', path: '*', skew_sec: 'x' },
      { kind: 'skew', path: '*', skew_sec: 5, every: 2 },
      [],
      null,
      'x',
    ];
    for (const b of bad) {
      let err: unknown;
      try {
        parseFaultSpec(b);
      } catch (e) {
        err = e;
      }
      expect(err, JSON.stringify(b)).toBeInstanceOf(ApiError);
      expect((err as ApiError).label).toBe('INVALID_PARAM_VALUE');
    }
  });
});
