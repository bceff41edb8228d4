import Decimal from 'decimal.js';
import type { AccountRef } from '../route.ts';
import type { InScope } from '../targets.ts';

// An independent oracle for the planner's property tests: it reads the targets itself (in whole 1e-8
// units, with decimal.js rather than the planner's BigInt) and searches every final distribution.

export const UNIT = new Decimal('1e-8');
export const units = (s: string): number => new Decimal(s).div(UNIT).toNumber();
export const amount = (k: number): string => new Decimal(k).times(UNIT).toFixed();
export const keyOf = (a: AccountRef): string => `${a.owner}:${a.kind}${a.pair ? `:${a.pair}` : ''}`;

export interface Bounds {
  lo: number;
  hi: number;
}

/** The spec's reading of each target, as final-balance bounds in units (Infinity when open). */
export function bounds(scope: readonly InScope[]): Bounds[] {
  const total = scope.reduce((a, s) => a + units(s.balance), 0);
  const exact: Decimal[] = [];
  const out = scope.map((s) => {
    const t = s.target;
    if (t.type === 'amount') return { lo: units(t.amount), hi: units(t.amount) };
    if (t.type === 'band') return { lo: t.floor ? units(t.floor) : 0, hi: t.ceiling ? units(t.ceiling) : Infinity };
    if (t.type === 'remainder') return { lo: 0, hi: Infinity };
    const [p, q = '1'] = t.share.split('/');
    const e = new Decimal(total).times(p!).div(q);
    exact.push(e);
    return { lo: e.floor().toNumber(), hi: NaN };
  });
  // Rounded-down shares leave ⌈Σ exact⌉ − Σ ⌊exact⌋ units, which may stay with any share account.
  const rest =
    exact
      .reduce((a, e) => a.plus(e), new Decimal(0))
      .ceil()
      .toNumber() - exact.reduce((a, e) => a + e.floor().toNumber(), 0);
  return out.map((b) => (Number.isNaN(b.hi) ? { lo: b.lo, hi: b.lo + rest } : b));
}

export interface OracleAnswer {
  /** Least units any plan moves, or null when no distribution meets every target. */
  leastMoved: number | null;
  /** Least total distance from the targets over all distributions (0 when reachable). */
  leastMiss: number;
}

export function search(balances: readonly number[], b: readonly Bounds[]): OracleAnswer {
  const n = balances.length;
  const total = balances.reduce((a, x) => a + x, 0);
  let leastMoved: number | null = null;
  let leastMiss = Infinity;
  const x = new Array<number>(n).fill(0);
  const visit = (i: number, left: number): void => {
    if (i === n - 1) {
      x[i] = left;
      let miss = 0;
      let moved = 0;
      for (let k = 0; k < n; k++) {
        miss += Math.max(0, b[k]!.lo - x[k]!) + Math.max(0, x[k]! - b[k]!.hi);
        moved += Math.max(0, x[k]! - balances[k]!);
      }
      if (miss < leastMiss) leastMiss = miss;
      if (miss === 0 && (leastMoved === null || moved < leastMoved)) leastMoved = moved;
      return;
    }
    for (let v = 0; v <= left; v++) {
      x[i] = v;
      visit(i + 1, left - v);
    }
  };
  visit(0, total);
  return { leastMoved, leastMiss };
}
