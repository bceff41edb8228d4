import { describe, expect, it } from 'vitest';
import { LEASE_MARGIN_MS, LeaseTooShortError, leaseRefusal } from './sendLease.ts';

// The fence a desk checks before each attempt leaves (docs/team.md §Send leases).

describe('leaseRefusal', () => {
  const asked = 1_000_000;
  const deadline = asked + 15_000;

  it('refuses a write whose lease another desk holds', () => {
    expect(leaseRefusal({ holder: 'other', leftMs: 0 }, asked, deadline, true)).toMatch(/another desk of the team took over/);
    expect(leaseRefusal({ holder: 'other', leftMs: 0 }, asked, deadline, false)).toMatch(/another desk/);
  });

  it('refuses an approved write that has no lease on a team, and lets an ungoverned one pass', () => {
    expect(leaseRefusal({ holder: 'none', leftMs: 0 }, asked, deadline, true)).toMatch(/holds no send lease/);
    expect(leaseRefusal({ holder: 'none', leftMs: 0 }, asked, deadline, false)).toBeNull();
  });

  it('sends on its own lease only when the lease outlasts the attempt, with a margin', () => {
    expect(leaseRefusal({ holder: 'mine', leftMs: 30_000 }, asked, deadline, true)).toBeNull();
    expect(leaseRefusal({ holder: 'mine', leftMs: 15_000 + LEASE_MARGIN_MS }, asked, deadline, true)).toBeNull();
    expect(() => leaseRefusal({ holder: 'mine', leftMs: 15_000 + LEASE_MARGIN_MS - 1 }, asked, deadline, true)).toThrow(LeaseTooShortError);
    expect(() => leaseRefusal({ holder: 'mine', leftMs: 0 }, asked, deadline, true)).toThrow(/less than the 16000 ms its attempt may take/);
  });
});
