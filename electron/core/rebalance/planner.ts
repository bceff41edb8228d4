import { accountKey, route, type AccountRef, type Endpoint, type Leg } from './route.ts';
import { intervals, type InScope, type Interval, type Target } from './targets.ts';
import { fromUnits, toUnits } from './units.ts';

// The rebalance planner (docs/rebalance.md). Pure: balances and targets in, a plan out; nothing is sent here.
// It finds final balances inside every target that move the least money, then pairs senders with
// receivers in order (the north-west corner rule), which needs at most senders + receivers − 1 moves.

export interface PlannedLeg {
  endpoint: Endpoint;
  signer: string;
  from: AccountRef;
  to: AccountRef;
  amount: string;
}
export interface PlannedTransfer {
  from: AccountRef;
  to: AccountRef;
  amount: string;
  legs: PlannedLeg[];
}
export interface AccountLine {
  account: AccountRef;
  target: Target;
  before: string;
  after: string;
}
/** `short`: the account stays below its target by `by`; `over`: it stays above its ceiling by `by`. */
export interface Unreachable {
  account: AccountRef;
  problem: 'short' | 'over';
  by: string;
}

export interface Plan {
  currency: string;
  total: string;
  /** Empty when any target is unreachable: nothing is planned in part. */
  transfers: PlannedTransfer[];
  accounts: AccountLine[];
  moved: string;
  /** senders + receivers − 1, the most transfers the plan may take. */
  bound: number;
  /** Requests to send; more than transfers by the extra hops through a spot account. */
  requests: number;
  extraHops: number;
  /** Shares rounded down to 1e-8 leave this much where it already was. */
  remainder: string;
  unreachable: Unreachable[];
  /** The least time §8.2 allows: the busiest (endpoint, signer) bucket, 80 per 10 s. */
  expectedSeconds: number;
}

const WALLET_LIMIT = 80;
const WALLET_WINDOW_S = 10;

export function plan(currency: string, scope: readonly InScope[]): Plan {
  if (!Array.isArray(scope) || scope.length === 0) throw new Error('a rebalance needs at least one account in scope');
  const seen = new Set<string>();
  const bal = scope.map((s) => {
    const key = accountKey(s.account);
    if (seen.has(key)) throw new Error(`${key} is in scope twice`);
    seen.add(key);
    return toUnits(s.balance, `${key} balance`);
  });
  const total = bal.reduce((a, b) => a + b, 0n);
  const { intervals: iv, remainder } = intervals(scope, total);
  const base = { currency, total: fromUnits(total), remainder: fromUnits(remainder) };

  const unreachable = unreachableTargets(scope, bal, iv, total);
  if (unreachable.length) {
    return {
      ...base,
      transfers: [],
      moved: '0',
      bound: 0,
      requests: 0,
      extraHops: 0,
      unreachable,
      expectedSeconds: 0,
      accounts: scope.map((s, i) => ({ account: s.account, target: s.target, before: fromUnits(bal[i]!), after: fromUnits(bal[i]!) })),
    };
  }
  const { out, inn } = flows(bal, iv);
  const transfers = pair(scope, out, inn);
  const after = bal.map((b, i) => b - out[i]! + inn[i]!);
  const requests = transfers.reduce((n, t) => n + t.legs.length, 0);
  const senders = out.filter((x) => x > 0n).length;
  const receivers = inn.filter((x) => x > 0n).length;
  return {
    ...base,
    transfers,
    accounts: scope.map((s, i) => ({ account: s.account, target: s.target, before: fromUnits(bal[i]!), after: fromUnits(after[i]!) })),
    moved: fromUnits(out.reduce((a, b) => a + b, 0n)),
    bound: Math.max(0, senders + receivers - 1),
    requests,
    extraHops: requests - transfers.length,
    unreachable: [],
    expectedSeconds: expectedSeconds(transfers),
  };
}

/**
 * When Σ floors exceed the total, the deficits cannot all be met: the last accounts in scope carry the
 * shortfall. When Σ ceilings are below it, the surplus has nowhere to go: the last over-ceiling accounts
 * keep it. Either way the amounts reported add up to exactly what is missing (or left over).
 */
function unreachableTargets(scope: readonly InScope[], bal: bigint[], iv: Interval[], total: bigint): Unreachable[] {
  const sumLo = iv.reduce((a, x) => a + x.lo, 0n);
  const unbounded = iv.some((x) => x.hi === null);
  const sumHi = iv.reduce((a, x) => a + (x.hi ?? 0n), 0n);
  const found: Unreachable[] = [];
  if (sumLo > total) {
    let gap = sumLo - total;
    for (let i = scope.length - 1; i >= 0 && gap > 0n; i--) {
      const need = iv[i]!.lo - bal[i]!;
      if (need <= 0n) continue;
      const by = need < gap ? need : gap;
      found.unshift({ account: scope[i]!.account, problem: 'short', by: fromUnits(by) });
      gap -= by;
    }
  } else if (!unbounded && sumHi < total) {
    let gap = total - sumHi;
    for (let i = scope.length - 1; i >= 0 && gap > 0n; i--) {
      const extra = bal[i]! - iv[i]!.hi!;
      if (extra <= 0n) continue;
      const by = extra < gap ? extra : gap;
      found.unshift({ account: scope[i]!.account, problem: 'over', by: fromUnits(by) });
      gap -= by;
    }
  }
  return found;
}

/**
 * What each account sends (`out`) and receives (`inn`). Deficits below a floor and surpluses above a
 * ceiling must move; whichever side is larger, the other side's extra comes from (or goes to) accounts
 * with room inside their interval, accounts already sending (or receiving) first, so no new party joins
 * the plan unless it must. Total moved = max(Σ deficits, Σ surpluses), the least any plan can move.
 */
function flows(bal: bigint[], iv: Interval[]): { out: bigint[]; inn: bigint[] } {
  const n = bal.length;
  const rest = iv.findIndex((x) => x.rest);
  const out = new Array<bigint>(n).fill(0n);
  const inn = new Array<bigint>(n).fill(0n);
  let deficits = 0n;
  let surpluses = 0n;
  for (let i = 0; i < n; i++) {
    const { lo, hi } = iv[i]!;
    const b = bal[i]!;
    if (b < lo) {
      inn[i] = lo - b;
      deficits += lo - b;
    } else if (hi !== null && b > hi) {
      out[i] = b - hi;
      surpluses += b - hi;
    }
  }
  if (deficits > surpluses) {
    const room = (i: number) => {
      const top = iv[i]!.hi !== null && bal[i]! > iv[i]!.hi ? iv[i]!.hi : bal[i]!;
      return top - iv[i]!.lo;
    };
    spread(
      deficits - surpluses,
      order(n, (i) => out[i]! > 0n, room, rest),
      room,
      out,
    );
  } else if (surpluses > deficits) {
    const room = (i: number): bigint | null => {
      const hi = iv[i]!.hi;
      if (hi === null) return null;
      const low = bal[i]! < iv[i]!.lo ? iv[i]!.lo : bal[i]!;
      return hi - low;
    };
    spread(
      surpluses - deficits,
      order(n, (i) => inn[i]! > 0n, room, rest),
      room,
      inn,
    );
  }
  return { out, inn };
}

/**
 * The account that takes the remainder first (it is there to absorb the difference, and every other
 * account then ends as near its own target as it may), then already-moving accounts, then the most room
 * first (fewest new parties).
 */
function order(n: number, moving: (i: number) => boolean, room: (i: number) => bigint | null, rest: number): number[] {
  const idx = Array.from({ length: n }, (_, i) => i).filter((i) => {
    const r = room(i);
    return r === null || r > 0n;
  });
  return idx.sort((a, b) => {
    if ((a === rest) !== (b === rest)) return a === rest ? -1 : 1;
    const ma = moving(a) ? 0 : 1;
    const mb = moving(b) ? 0 : 1;
    if (ma !== mb) return ma - mb;
    const ra = room(a);
    const rb = room(b);
    if (ra === rb) return a - b;
    if (ra === null) return -1;
    if (rb === null) return 1;
    return ra > rb ? -1 : 1;
  });
}

function spread(extra: bigint, idx: number[], room: (i: number) => bigint | null, into: bigint[]): void {
  for (const i of idx) {
    if (extra === 0n) break;
    const r = room(i);
    const take = r === null || r > extra ? extra : r;
    into[i] = into[i]! + take;
    extra -= take;
  }
  if (extra !== 0n) throw new Error('planner: the targets left money unplaced'); // unreachableTargets rules this out
}

function pair(scope: readonly InScope[], out: bigint[], inn: bigint[]): PlannedTransfer[] {
  const send = out.map((x, i) => [i, x] as [number, bigint]).filter(([, x]) => x > 0n);
  const take = inn.map((x, i) => [i, x] as [number, bigint]).filter(([, x]) => x > 0n);
  const transfers: PlannedTransfer[] = [];
  let s = 0;
  let t = 0;
  while (s < send.length && t < take.length) {
    const [si, sLeft] = send[s]!;
    const [ti, tLeft] = take[t]!;
    const amount = sLeft < tLeft ? sLeft : tLeft;
    const from = scope[si]!.account;
    const to = scope[ti]!.account;
    const a = fromUnits(amount);
    transfers.push({ from, to, amount: a, legs: route(from, to).map((l: Leg) => ({ ...l, amount: a })) });
    send[s]![1] -= amount;
    take[t]![1] -= amount;
    if (send[s]![1] === 0n) s++;
    if (take[t]![1] === 0n) t++;
  }
  return transfers;
}

function expectedSeconds(transfers: readonly PlannedTransfer[]): number {
  const perBucket = new Map<string, number>();
  for (const t of transfers)
    for (const l of t.legs) {
      const k = `${l.signer} ${l.endpoint}`;
      perBucket.set(k, (perBucket.get(k) ?? 0) + 1);
    }
  let worst = 0;
  for (const count of perBucket.values()) worst = Math.max(worst, (Math.ceil(count / WALLET_LIMIT) - 1) * WALLET_WINDOW_S);
  return worst;
}
