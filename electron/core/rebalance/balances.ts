import { z } from 'zod';
import { SpotAccount, SubAccountSpotBalance } from '../../../shared/api/records.ts';
import type { ApiClient } from '../client/client.ts';
import type { AccountRef } from './route.ts';

// Fresh balances for the batch's resume check, read with the main key: its own spot account (GET
// /spot/accounts) and its sub-accounts' spot accounts (§4.1 /wallet/sub_account_balances). Other kinds
// are not read yet: a resume over them says so rather than guessing.

export async function readSpotBalance(client: ApiClient, account: AccountRef, currency: string): Promise<string> {
  if (account.kind !== 'spot') throw new Error(`reading ${account.owner}'s ${account.kind} balance for a resume is not supported yet`);
  if (account.owner === 'main') {
    const rows = await client.request({ method: 'GET', path: '/spot/accounts', query: [['currency', currency]], priority: 'action' }, z.array(SpotAccount));
    return rows.find((r) => r.currency === currency)?.available ?? '0';
  }
  const rows = await client.request({ method: 'GET', path: '/wallet/sub_account_balances', query: [['sub_uid', account.owner]], priority: 'action' }, z.array(SubAccountSpotBalance));
  return rows.find((r) => r.uid === account.owner)?.available[currency] ?? '0';
}
