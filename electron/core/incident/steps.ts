import type { z } from 'zod';
import type { WriteRequest } from '../../../shared/api/writes.ts';
import { dec, fmt } from '../../../shared/money.ts';

// The containment sequence of one sub-account, in the order it runs. The exchange refuses transfers out
// of a locked sub-account (SUB_ACCOUNT_LOCKED) and a removed key cancels nothing, so the order is: the keys
// the desk does not sign with are removed first (whoever holds them stops at once), the sub-account's
// open orders are cancelled with the desk's own key, its spot balances swept to the main account (the
// rebalance's "sweep to main" preset), then the sub-account is locked and the desk's own key removed.

export type Write = z.output<typeof WriteRequest>;

export interface IncidentFacts {
  uid: string;
  /** The sub-account's keys; `desk`: the one this desk signs its requests with. */
  keys: ReadonlyArray<{ key: string; desk: boolean }>;
  /** Pairs with open orders (read with the desk's key; empty without one). */
  openPairs: readonly string[];
  /** What each currency's spot account holds, available and in orders. */
  balances: ReadonlyArray<{ currency: string; available: string; locked: string }>;
  /** Whether the desk holds a key of the sub-account (its orders are cancelled with it). */
  deskKey: boolean;
  /** Locked already: its keys and transfers are refused, so only the keys' removal is left to do. */
  locked?: boolean;
  /** The desk is frozen: only containment goes (a lock, then the keys' removal); cancels and sweeps wait for an unfreeze. */
  frozen?: boolean;
}

/** §8.5: transfer amounts carry at most 8 decimals; a remainder below that stays. */
const sweepAmount = (v: string): string => fmt(dec(v), 8);

export function incidentWrites(f: IncidentFacts): { write: Write; note: string }[] {
  const steps: { write: Write; what: string }[] = [];
  const removeKey = (key: string, why: string) =>
    steps.push({
      write: { kind: 'sub_account_key_delete', input: { user_id: f.uid, key } },
      what: `disable key ${key.slice(0, 4)}… (${why})`,
    });
  if (f.frozen && !f.locked) {
    steps.push({
      write: { kind: 'sub_account_lock', input: { user_id: f.uid } },
      what: 'lock the sub-account (the desk is frozen: no cancel or sweep)',
    });
    for (const k of f.keys) removeKey(k.key, k.desk ? "the desk's own" : "not the desk's");
    return steps.map((s, i) => ({ write: s.write, note: `incident ${f.uid} step ${i + 1}/${steps.length}: ${s.what}` }));
  }
  for (const k of f.keys) if (!k.desk) removeKey(k.key, "not the desk's");
  if (f.locked) {
    for (const k of f.keys) if (k.desk) removeKey(k.key, "the desk's own");
    return steps.map((s, i) => ({ write: s.write, note: `incident ${f.uid} step ${i + 1}/${steps.length}: ${s.what}` }));
  }
  if (f.deskKey)
    for (const pair of f.openPairs)
      steps.push({ write: { kind: 'spot_cancel_all', input: { currency_pair: pair, sub_uid: f.uid } }, what: `cancel all ${pair} orders` });
  for (const b of f.balances) {
    // Orders cancelled first release what they held: it is swept with the rest.
    const amount = sweepAmount(f.deskKey ? dec(b.available).plus(dec(b.locked)).toFixed() : b.available);
    if (dec(amount).lte(0)) continue;
    steps.push({
      write: {
        kind: 'main_sub_transfer',
        input: { sub_account: f.uid, sub_account_type: 'spot', currency: b.currency, amount, direction: 'from' },
      },
      what: `sweep ${amount} ${b.currency} to main`,
    });
  }
  steps.push({ write: { kind: 'sub_account_lock', input: { user_id: f.uid } }, what: 'lock the sub-account' });
  for (const k of f.keys) if (k.desk) removeKey(k.key, "the desk's own, last");
  return steps.map((s, i) => ({ write: s.write, note: `incident ${f.uid} step ${i + 1}/${steps.length}: ${s.what}` }));
}

const NOTE = /^incident (\d+) step (\d+)\/(\d+): (.*)$/;

/** A row's place in its sequence and its words, from its note. */
export function stepOf(note: string | undefined): { uid: string; step: number; of: number; what: string } | null {
  const m = note ? NOTE.exec(note) : null;
  return m ? { uid: m[1]!, step: Number(m[2]), of: Number(m[3]), what: m[4]! } : null;
}
