import type { LeaseRenewal } from './store.ts';

// A send lease is a fencing token (docs/team.md §Send leases): a desk sends a write only on a lease it
// has just renewed and that outlasts the attempt's deadline, so every attempt it makes has run out
// before the lease can be claimed by another desk (the store refuses a claim on a lease still running,
// team/leases.ts). The desk taking over then treats the write as in doubt (writes/doubt.ts).

/** Room for the store's and this desk's clocks to disagree about the lease's end. */
export const LEASE_MARGIN_MS = 1_000;

/** A lease too short to carry the attempt: the write waits (the executor keeps it) for the next renewal. */
export class LeaseTooShortError extends Error {
  constructor(leftMs: number, neededMs: number) {
    super(
      `its send lease runs ${Math.round(leftMs)} ms more, less than the ${Math.round(neededMs)} ms its attempt may take; it waits for a longer lease`,
    );
    this.name = 'LeaseTooShortError';
  }
}

/**
 * Why the write may not leave on this renewal, or null. `askedAt` is this desk's clock before the renewal
 * was asked, so the lease's end is never placed later than the store set it; `deadline`, the attempt's.
 * `governed`: an operators' approval carries the write, so on a team it must have a lease of its own.
 * Throws LeaseTooShortError when the lease is this desk's but ends before the attempt's deadline.
 */
export function leaseRefusal(r: LeaseRenewal, askedAt: number, deadline: number, governed: boolean): string | null {
  if (r.holder === 'other') return 'another desk of the team took over sending it (its send lease)';
  if (r.holder === 'none') return governed ? 'the team store holds no send lease for it, so no desk can show it may send it' : null;
  const needed = deadline - askedAt + LEASE_MARGIN_MS;
  if (r.leftMs < needed) throw new LeaseTooShortError(r.leftMs, needed);
  return null;
}
