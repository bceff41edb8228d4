import { z } from 'zod';
import { SUB_ACCOUNT_LOCKED_STATE, SubAccount, SubAccountKey } from '../../../shared/api/subAccounts.ts';
import type { IntentView } from '../journal/intents.ts';
import { unknownFrom, type Lookup, type WriteClient } from './lookups.ts';

// Whether a sub-account management write took effect, from the exchange's own records: a lock or an
// unlock by the sub-account's state, a key removal by the key's absence from its list, a key or a
// sub-account creation by the name the desk gave it (the create's client-side id). "absent" is what lets
// the executor send again, so it is answered only from a list the exchange gave whole.

const uidOf = (v: IntentView): string => encodeURIComponent(String(v.body.user_id));

async function subAccountOf(client: WriteClient, v: IntentView): Promise<SubAccount> {
  return client.request({ method: 'GET', path: `/sub_accounts/${uidOf(v)}`, priority: 'action' }, SubAccount);
}

export function keysOf(client: WriteClient, uid: string): Promise<SubAccountKey[]> {
  return client.request(
    { method: 'GET', path: `/sub_accounts/${encodeURIComponent(uid)}/keys`, priority: 'action' },
    z.array(SubAccountKey),
  );
}

export function subAccountsOf(client: WriteClient): Promise<SubAccount[]> {
  // type 0: every kind of sub-account, so that a name is never missed for its type.
  return client.request({ method: 'GET', path: '/sub_accounts', query: [['type', '0']], priority: 'action' }, z.array(SubAccount));
}

export async function lookupManagement(client: WriteClient, v: IntentView): Promise<Lookup> {
  try {
    switch (v.kind) {
      case 'sub_account_lock':
      case 'sub_account_unlock': {
        const a = await subAccountOf(client, v);
        const locked = a.state === SUB_ACCOUNT_LOCKED_STATE;
        return locked === (v.kind === 'sub_account_lock') ? { kind: 'found', copies: 1, exchange_id: a.user_id } : { kind: 'absent' };
      }
      case 'sub_account_key_delete': {
        const keys = await keysOf(client, String(v.body.user_id));
        return keys.some((k) => k.key === v.body.key) ? { kind: 'absent' } : { kind: 'found', copies: 1, exchange_id: String(v.body.key) };
      }
      case 'sub_account_key_create': {
        const mine = (await keysOf(client, String(v.body.user_id))).filter((k) => k.name === v.client_id);
        return mine.length ? { kind: 'found', copies: mine.length, exchange_id: mine[0]!.key } : { kind: 'absent' };
      }
      case 'sub_account_create': {
        const mine = (await subAccountsOf(client)).filter((a) => a.login_name === v.client_id);
        return mine.length ? { kind: 'found', copies: mine.length, exchange_id: mine[0]!.user_id } : { kind: 'absent' };
      }
      default:
        return { kind: 'unknown', reason: `a ${v.kind} is not a sub-account management write`, impossible: true };
    }
  } catch (e) {
    return unknownFrom(e);
  }
}
