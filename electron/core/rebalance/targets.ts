import { accountKey, type AccountRef } from './route.ts';
import { toUnits } from './units.ts';
import { TWO_REMAINDERS } from '../../../shared/rebalance.ts';

/**
 * What an account should hold after the rebalance. A share is of the total in scope: a decimal ("0.25")
 * or a fraction ("1/3", which a decimal cannot spell). A band tops up to its floor and sweeps above its
 * ceiling; either side may be left open.
 */
export type Target =
  | { type: 'amount'; amount: string }
  | { type: 'share'; share: string }
  | { type: 'band'; floor?: string; ceiling?: string }
  | { type: 'remainder' };

export interface InScope {
  account: AccountRef;
  balance: string;
  target: Target;
}

/**
 * The final balances a target accepts, in units; `hi` null is unbounded. `share` is the rounded-down share.
 * `rest`: the account takes the remainder, so it absorbs whatever the others' targets leave or need.
 */
export interface Interval {
  lo: bigint;
  hi: bigint | null;
  share: bigint | null;
  rest?: true;
}

const FRACTION_RE = /^([1-9]\d{0,17})\/([1-9]\d{0,17})$/;
const SHARE_DECIMAL_RE = /^(0|1)(\.\d{1,18})?$/;

function shareRatio(s: string, who: string): [bigint, bigint] {
  const f = typeof s === 'string' ? FRACTION_RE.exec(s) : null;
  let r: [bigint, bigint] | null = null;
  if (f) r = [BigInt(f[1]!), BigInt(f[2]!)];
  else if (typeof s === 'string' && SHARE_DECIMAL_RE.test(s)) {
    const [int, frac = ''] = s.split('.');
    const den = 10n ** BigInt(frac.length);
    r = [BigInt(int!) * den + BigInt(frac || '0'), den];
  }
  if (!r || r[0] > r[1])
    throw new Error(`${who}: a share must be a decimal between 0 and 1 or a fraction such as 1/3, not ${JSON.stringify(s)}`);
  return r;
}

/**
 * Each target as an interval. Shares are rounded down to 1e-8; the remainder (the rounded-off units) may
 * stay with any share account, so each share interval is [share, share + remainder] and the sum of
 * balances keeps the rest where it already is.
 */
export function intervals(scope: readonly InScope[], total: bigint): { intervals: Interval[]; remainder: bigint } {
  const ratios: ([bigint, bigint] | null)[] = scope.map((s) =>
    s.target?.type === 'share' ? shareRatio(s.target.share, accountKey(s.account)) : null,
  );
  // Σ shares ≤ 1, compared exactly over the least common denominator ("1/400" × 400 stays at 400, where
  // the product of denominators would grow to 400^400).
  let den = 1n;
  for (const r of ratios) if (r) den = (den / gcd(den, r[1])) * r[1];
  let num = 0n;
  for (const r of ratios) if (r) num += r[0] * (den / r[1]);
  if (num > den) throw new Error('the shares add up to more than the whole');
  let exactSum = 0n; // Σ exact shares in units × den
  let floored = 0n;
  const out: Interval[] = scope.map((s, i) => {
    const who = accountKey(s.account);
    const t = s.target;
    if (!t || typeof t !== 'object') throw new Error(`${who}: a target is needed`);
    if (t.type === 'amount') {
      const a = toUnits(t.amount, `${who} target`);
      return { lo: a, hi: a, share: null };
    }
    if (t.type === 'share') {
      const [n, d] = ratios[i]!;
      const v = (total * n) / d;
      floored += v;
      exactSum += total * n * (den / d);
      return { lo: v, hi: v, share: v };
    }
    if (t.type === 'band') {
      const lo = t.floor === undefined ? 0n : toUnits(t.floor, `${who} floor`);
      const hi = t.ceiling === undefined ? null : toUnits(t.ceiling, `${who} ceiling`);
      if (hi !== null && hi < lo) throw new Error(`${who}: the ceiling is below the floor`);
      return { lo, hi, share: null };
    }
    if (t.type === 'remainder') return { lo: 0n, hi: null, share: null, rest: true };
    throw new Error(`${who}: unknown target type ${JSON.stringify((t as { type?: unknown }).type)}`);
  });
  const rest = scope.filter((s) => s.target?.type === 'remainder');
  if (rest.length > 1) throw new Error(TWO_REMAINDERS(rest.length));
  // Whole units the rounding left over: ⌈Σ exact shares⌉ − Σ rounded shares.
  const remainder = (exactSum + den - 1n) / den - floored;
  for (const iv of out) if (iv.share !== null) iv.hi = iv.lo + remainder;
  return { intervals: out, remainder };
}

function gcd(a: bigint, b: bigint): bigint {
  while (b) [a, b] = [b, a % b];
  return a;
}

/** "Equalize": every account in scope gets an equal share. */
export function equalize(accounts: readonly { account: AccountRef; balance: string }[]): InScope[] {
  return accounts.map((a) => ({ ...a, target: { type: 'share', share: `1/${accounts.length}` } }));
}

/** "Sweep everything above the ceiling to the main account": the main account's spot account takes it all. */
export function sweepToMain(
  accounts: readonly { account: AccountRef; balance: string }[],
  ceiling: string,
  mainSpotBalance: string,
): InScope[] {
  const subs = accounts.filter((a) => a.account.owner !== 'main');
  return [
    ...subs.map((a) => ({ ...a, target: { type: 'band', ceiling } as Target })),
    { account: { owner: 'main', kind: 'spot' }, balance: mainSpotBalance, target: { type: 'remainder' } },
  ];
}
