import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { plan, type Plan } from './planner.ts';
import type { AccountRef } from './route.ts';
import type { InScope, Target } from './targets.ts';
import { amount, bounds, keyOf, search, units } from './testkit/oracle.ts';

// Planner against the oracle of testkit/oracle.ts: every distribution of up to 6 accounts searched.

const POOL: AccountRef[] = [
  { owner: 'main', kind: 'spot' },
  { owner: 'main', kind: 'futures' },
  { owner: '101', kind: 'spot' },
  { owner: '101', kind: 'futures' },
  { owner: '101', kind: 'margin', pair: 'BTC_USDT' },
  { owner: '101', kind: 'options' },
  { owner: '102', kind: 'spot' },
  { owner: '102', kind: 'delivery' },
  { owner: '102', kind: 'cross_margin' },
  { owner: '103', kind: 'spot' },
];

type Raw = { pool: number; balance: number; target: ['amount', number] | ['share', number] | ['band', number | null, number | null] };

// Fixed amounts rarely add up to the total, so they are drawn less often than shares and bands.
const rawTarget = fc.oneof(
  { weight: 1, arbitrary: fc.tuple(fc.constant('amount' as const), fc.integer({ min: 0, max: 5 })) },
  { weight: 3, arbitrary: fc.tuple(fc.constant('share' as const), fc.integer({ min: 0, max: 6 })) },
  {
    weight: 4,
    arbitrary: fc.tuple(fc.constant('band' as const), fc.option(fc.integer({ min: 0, max: 4 })), fc.option(fc.integer({ min: 0, max: 4 }))),
  },
);

const scopes = fc
  .record({
    accounts: fc.uniqueArray(
      fc.record({ pool: fc.integer({ min: 0, max: POOL.length - 1 }), balance: fc.integer({ min: 0, max: 3 }), target: rawTarget }),
      { minLength: 1, maxLength: 6, selector: (r) => r.pool },
    ),
    den: fc.constantFrom(1, 2, 3, 6, 7),
  })
  .map(({ accounts, den }) => toScope(accounts as Raw[], den));

/** Share numerators over one denominator, capped so the shares never add up to more than the whole. */
function toScope(raw: Raw[], den: number): InScope[] {
  let used = 0;
  return raw.map((r) => {
    let target: Target;
    const t = r.target;
    if (t[0] === 'amount') target = { type: 'amount', amount: amount(t[1]) };
    else if (t[0] === 'share') {
      const p = Math.min(t[1] % (den + 1), den - used);
      used += p;
      target = { type: 'share', share: p === 0 ? '0' : `${p}/${den}` };
    } else {
      const [lo, hi] = [t[1], t[2] === null || t[1] === null ? t[2] : t[1] + t[2]];
      target = { type: 'band', ...(lo === null ? {} : { floor: amount(lo) }), ...(hi === null ? {} : { ceiling: amount(hi) }) };
    }
    return { account: POOL[r.pool]!, balance: amount(r.balance), target };
  });
}

const SUB_TO_SUB = new Set(['spot', 'futures', 'delivery']);
const MAIN_TO_SUB = new Set(['spot', 'futures', 'delivery', 'options']);

/** Each request must be one §4.1 allows, signed by a key that may send it. */
function checkLeg(l: Plan['transfers'][number]['legs'][number]): void {
  const { from, to } = l;
  if (l.endpoint === '/wallet/transfers') {
    expect(from.owner).toBe(to.owner);
    expect(l.signer).toBe(from.owner);
  } else if (l.endpoint === '/wallet/sub_account_transfers') {
    const [main, sub] = from.owner === 'main' ? [from, to] : [to, from];
    expect(main).toEqual({ owner: 'main', kind: 'spot' });
    expect(sub.owner).not.toBe('main');
    expect(MAIN_TO_SUB.has(sub.kind)).toBe(true);
    expect(l.signer).toBe('main');
  } else {
    expect(from.owner).not.toBe('main');
    expect(to.owner).not.toBe('main');
    expect(from.owner).not.toBe(to.owner);
    expect(SUB_TO_SUB.has(from.kind) && SUB_TO_SUB.has(to.kind)).toBe(true);
  }
}

describe('rebalance planner against an exhaustive oracle', () => {
  it('reaches every reachable target moving the least amount, within the transfer bound, never overdrawing; reports the rest', () => {
    fc.assert(
      fc.property(scopes, (scope) => {
        const p = plan('USDT', scope);
        const b = bounds(scope);
        const bal = scope.map((s) => units(s.balance));
        const oracle = search(bal, b);

        if (oracle.leastMoved === null) {
          expect(p.transfers).toEqual([]);
          expect(p.unreachable.length).toBeGreaterThan(0);
          expect(p.unreachable.reduce((a, u) => a + units(u.by), 0)).toBe(oracle.leastMiss);
          for (const u of p.unreachable) {
            const i = scope.findIndex((s) => keyOf(s.account) === keyOf(u.account));
            if (u.problem === 'short') expect(units(u.by)).toBeLessThanOrEqual(b[i]!.lo - bal[i]!);
            else expect(units(u.by)).toBeLessThanOrEqual(bal[i]! - b[i]!.hi);
          }
          return;
        }
        expect(p.unreachable).toEqual([]);

        // Run the requests in order; accounts outside the scope (hops) start empty.
        const held = new Map(scope.map((s, i) => [keyOf(s.account), bal[i]!]));
        let moved = 0;
        for (const t of p.transfers) {
          expect(units(t.amount)).toBeGreaterThan(0);
          expect(keyOf(t.from)).not.toBe(keyOf(t.to));
          expect(keyOf(t.legs[0]!.from)).toBe(keyOf(t.from));
          expect(keyOf(t.legs.at(-1)!.to)).toBe(keyOf(t.to));
          moved += units(t.amount);
          t.legs.forEach((l, k) => {
            if (k > 0) expect(keyOf(l.from)).toBe(keyOf(t.legs[k - 1]!.to));
            checkLeg(l);
            expect(l.amount).toBe(t.amount);
            const left = (held.get(keyOf(l.from)) ?? 0) - units(l.amount);
            expect(left, `${keyOf(l.from)} overdrawn`).toBeGreaterThanOrEqual(0);
            held.set(keyOf(l.from), left);
            held.set(keyOf(l.to), (held.get(keyOf(l.to)) ?? 0) + units(l.amount));
          });
        }
        const final = scope.map((s) => held.get(keyOf(s.account))!);
        final.forEach((x, i) => {
          expect(x).toBeGreaterThanOrEqual(b[i]!.lo);
          expect(x).toBeLessThanOrEqual(b[i]!.hi);
          expect(units(p.accounts[i]!.after)).toBe(x);
        });
        expect(moved).toBe(oracle.leastMoved);
        expect(units(p.moved)).toBe(oracle.leastMoved);
        const senders = final.filter((x, i) => x < bal[i]!).length;
        const receivers = final.filter((x, i) => x > bal[i]!).length;
        expect(p.transfers.length).toBeLessThanOrEqual(Math.max(0, senders + receivers - 1));
        expect(p.requests).toBe(p.transfers.reduce((a, t) => a + t.legs.length, 0));
        expect(p.extraHops).toBe(p.requests - p.transfers.length);
      }),
      { numRuns: 1000 },
    );
  });
});
