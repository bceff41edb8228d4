import { isManagementKind } from '../../../shared/api/subAccounts.ts';
import type { IntentView } from '../journal/intents.ts';
import type { Journal } from '../journal/journal.ts';
import { lookupTransfer, lookupWithdrawal, reconcileUidTransfer, type Lookup, type WriteClient } from './lookups.ts';
import { lookupCancel, lookupSpotOrder } from './orderLookups.ts';
import { lookupSmallBalance } from './smallBalanceLookup.ts';
import { lookupManagement } from './subAccountLookups.ts';

// How each kind of write is looked up at the exchange, with the key that signed it (executor.ts).

export interface LookupContext {
  journal: Journal;
  /** The main key's client. */
  client: WriteClient;
  /** The client whose key signs `v`, or why none can. */
  clientFor: (v: IntentView) => WriteClient | string;
  now: number;
}

export function lookupFor(v: IntentView, c: LookupContext): Promise<Lookup> {
  if (v.kind === 'spot_order' || v.kind === 'spot_cancel' || v.kind === 'spot_cancel_all') {
    // Looked up with the key that placed it: a sub-account's orders are its own.
    const client = c.clientFor(v);
    if (typeof client === 'string') return Promise.resolve({ kind: 'unknown', impossible: true, reason: client });
    return v.kind === 'spot_order' ? lookupSpotOrder(client, v, c.now) : lookupCancel(client, v);
  }
  if (v.kind === 'small_balance_convert') {
    // The account's own history and balance, read with its own key.
    const client = c.clientFor(v);
    if (typeof client === 'string') return Promise.resolve({ kind: 'unknown', impossible: true, reason: client });
    return lookupSmallBalance(client, v, claimedConversions(c.journal, v));
  }
  switch (v.kind) {
    case 'withdrawal':
      return lookupWithdrawal(c.client, v, c.now);
    case 'main_sub_transfer':
      return lookupTransfer(c.client, v);
    case 'uid_transfer':
      return reconcileUidTransfer(c.client, v, claimedUidTransfers(c.journal, v.id), c.now);
    default:
      if (isManagementKind(v.kind)) return lookupManagement(c.client, v);
      return Promise.resolve({ kind: 'unknown', reason: 'this kind of write cannot be looked up' });
  }
}

/** History records of the same account's conversions that other intents already account for. */
function claimedConversions(journal: Journal, v: IntentView): Set<string> {
  return new Set(
    journal
      .intents()
      .filter((o) => o.kind === v.kind && o.id !== v.id && o.signer === v.signer && o.exchange_id !== undefined)
      .map((o) => o.exchange_id!),
  );
}

/** Exchange ids of UID transfers other intents already account for. */
function claimedUidTransfers(journal: Journal, except: string): Set<string> {
  return new Set(
    journal
      .intents()
      .filter((o) => o.kind === 'uid_transfer' && o.id !== except && o.exchange_id !== undefined)
      .map((o) => o.exchange_id!),
  );
}
