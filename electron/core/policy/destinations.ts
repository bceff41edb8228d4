import type { Destination } from '../../../shared/api/policy.ts';
import { destinationProblems } from '../../../shared/destination.ts';

// Where a withdrawal goes, as the policy sees it. A destination with look-alike or hidden characters is
// never a known one (shared/destination.ts). The exchange's saved addresses count only when the
// exchange marks them verified (§2.9 `verified` "1"); the desk's own address book counts only once an
// entry has waited out its cooling-off period, so an address slipped in today cannot receive money today.

export interface SavedAddress {
  currency: string;
  chain: string;
  address: string;
  tag?: string;
  verified: string;
}

export interface BookEntry {
  currency: string;
  chain: string;
  address: string;
  memo?: string;
  added_at: number;
}

export interface DestinationQuery {
  currency: string;
  chain: string;
  address: string;
  memo?: string;
}

const same = (
  a: DestinationQuery,
  b: { currency: string; chain: string; address: string },
  memoA: string | undefined,
  memoB: string | undefined,
): boolean => a.currency === b.currency && a.chain === b.chain && a.address === b.address && (memoA ?? '') === (memoB ?? '');

export function classifyDestination(
  q: DestinationQuery,
  saved: readonly SavedAddress[],
  book: readonly BookEntry[],
  nowMs: number,
  coolingMs: number,
): { destination: Destination; why: string } {
  // The drafts' schemas refuse such a destination already; a list entry with one never makes it known.
  const problem = destinationProblems(q)[0];
  if (problem) return { destination: 'unknown', why: problem.message };
  if (saved.some((s) => s.verified === '1' && same(q, s, q.memo, s.tag))) {
    return { destination: 'verified_saved', why: 'a verified saved address at the exchange' };
  }
  const entry = book.find((b) => same(q, b, q.memo, b.memo));
  if (entry) {
    const ready = entry.added_at + coolingMs;
    if (nowMs >= ready) return { destination: 'address_book', why: "in the desk's address book" };
    return { destination: 'unknown', why: `in the desk's address book, but still cooling off until ${new Date(ready).toISOString()}` };
  }
  return { destination: 'unknown', why: 'on no list' };
}
