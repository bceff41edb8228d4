import { Dec, fmt, isDecimalString } from '../../../shared/money.ts';
import { holdingOf } from './amounts.ts';
import { crossRisk, type SubAccountEntry } from './matrix.ts';
import type { Condition } from './store.ts';

// §2.8: cross margin `risk` = total / (borrowed + interest); below 1.1 (110%) the account is liquidated.
// Isolated margin shows the same kind of ratio per pair as `mmr` (its `risk` is deprecated). A
// threshold above 1.1 warns before that happens: one per sub-account, else the default setting.
// A floor per sub-account and currency is compared with that currency's holdings across every account.

export interface AlertRules {
  defaultThreshold: string;
  thresholds: Map<string, string>;
  floors: Array<{ uid: string; currency: string; floor: string }>;
}

export function conditionsOf(entries: SubAccountEntry[], rules: AlertRules): Condition[] {
  const out: Condition[] = [];
  const floorsByUid = new Map<string, Array<{ currency: string; floor: string }>>();
  for (const f of rules.floors) floorsByUid.set(f.uid, [...(floorsByUid.get(f.uid) ?? []), f]);
  for (const e of entries) {
    const threshold = rules.thresholds.get(e.uid) ?? rules.defaultThreshold;
    const cross = crossRisk(e);
    if (cross !== null && new Dec(cross).lt(threshold)) out.push({ uid: e.uid, kind: 'cross_risk', subject: '', value: cross, threshold });
    for (const p of e.margin) {
      const mmr = p.mmr;
      if (typeof mmr === 'string' && isDecimalString(mmr) && p.account_type !== 'inactive' && new Dec(mmr).lt(threshold)) {
        out.push({ uid: e.uid, kind: 'margin_risk', subject: String(p.currency_pair ?? ''), value: mmr, threshold });
      }
    }
    for (const f of floorsByUid.get(e.uid) ?? []) {
      const held = holdingOf(e.kinds, f.currency);
      if (held.lt(f.floor)) out.push({ uid: e.uid, kind: 'low_balance', subject: f.currency, value: fmt(held), threshold: f.floor });
    }
  }
  return out;
}
