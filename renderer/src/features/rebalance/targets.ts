import type { AccountRef, ScopeAccount, Target, TargetLine, Template } from '../../../../shared/rebalance.ts';

// The targets form's state: one row per account in scope, each with its target as typed. The core checks
// every figure again (shared/rebalance.ts): this only turns rows into the request and back.

export type TargetType = Target['type'];
export interface Row {
  account: AccountRef;
  name: string;
  balance: string;
  reachable: boolean;
  why: string | null;
  included: boolean;
  type: TargetType;
  amount: string;
  share: string;
  floor: string;
  ceiling: string;
}

export const keyOf = (a: AccountRef): string => (a.pair ? `${a.owner}:${a.kind}:${a.pair}` : `${a.owner}:${a.kind}`);

export function accountName(a: AccountRef, name = ''): string {
  const who = a.owner === 'main' ? 'Main account' : `Sub-account ${a.owner}${name ? ` (${name})` : ''}`;
  return `${who} · ${a.kind.replace('_', ' ')}${a.pair ? ` ${a.pair}` : ''}`;
}

/** The main account's spot account: where money a plan does not place ends by default. */
const isMainSpot = (a: AccountRef): boolean => a.owner === 'main' && a.kind === 'spot' && !a.pair;

/**
 * One row per account, each keeping its balance, except the main spot account, which takes the
 * remainder: in scope without a figure of its own it ends with what the others' targets leave, where
 * keeping its balance made every plan that moved money unreachable.
 */
export function rowsOf(scope: readonly ScopeAccount[]): Row[] {
  return scope.map((s) => ({
    ...s,
    included: false,
    type: isMainSpot(s.account) ? 'remainder' : 'amount',
    amount: s.balance,
    share: '',
    floor: '',
    ceiling: '',
  }));
}

/**
 * The rows after the balances were read again: each account keeps what the operator chose for it (in
 * scope, its target and figures) and takes the new figures; an account no longer reachable leaves the scope.
 */
export function mergeScope(current: readonly Row[], fresh: readonly Row[]): Row[] {
  const kept = new Map(current.map((r) => [keyOf(r.account), r]));
  return fresh.map((f) => {
    const was = kept.get(keyOf(f.account));
    return was
      ? { ...was, name: f.name, balance: f.balance, reachable: f.reachable, why: f.why, included: was.included && f.reachable }
      : f;
  });
}

export function targetOf(r: Row): Target {
  if (r.type === 'amount') return { type: 'amount', amount: r.amount.trim() };
  if (r.type === 'share') return { type: 'share', share: r.share.trim() };
  if (r.type === 'remainder') return { type: 'remainder' };
  return { type: 'band', ...(r.floor.trim() ? { floor: r.floor.trim() } : {}), ...(r.ceiling.trim() ? { ceiling: r.ceiling.trim() } : {}) };
}

export function linesOf(rows: readonly Row[]): TargetLine[] {
  return rows.filter((r) => r.included).map((r) => ({ account: r.account, target: targetOf(r) }));
}

/** A template's targets laid over the accounts read now; an account it names that is not in scope is reported. */
export function applyTemplate(rows: readonly Row[], t: Template): { rows: Row[]; missing: string[] } {
  const byKey = new Map(t.lines.map((l) => [keyOf(l.account), l.target]));
  const next = rows.map((r) => {
    const target = byKey.get(keyOf(r.account));
    if (!target) return { ...r, included: false };
    byKey.delete(keyOf(r.account));
    return {
      ...r,
      included: true,
      type: target.type,
      amount: target.type === 'amount' ? target.amount : r.amount,
      share: target.type === 'share' ? target.share : '',
      floor: target.type === 'band' ? (target.floor ?? '') : '',
      ceiling: target.type === 'band' ? (target.ceiling ?? '') : '',
    };
  });
  return { rows: next, missing: [...byKey.keys()] };
}
