import type { ApiClient, Priority } from '../client/client.ts';
import { flatten, pagesByNumber } from './pagination.ts';

// §4.1 / §2.8. Spot balances of sub-accounts come in pages (page/limit, at most 100 per page); the
// margin, futures and cross-margin reads return every sub-account in one answer when `sub_uid` is omitted.

export const SUB_ACCOUNT_BALANCES_MAX_LIMIT = 100;

export interface SubAccountSpotBalance {
  uid: string;
  available: Record<string, string>;
  locking?: Record<string, string>;
}

export function subAccountSpotBalances(client: ApiClient, priority: Priority = 'visible'): AsyncGenerator<SubAccountSpotBalance> {
  return flatten(pagesByNumber<SubAccountSpotBalance>(client, { path: '/wallet/sub_account_balances', limit: SUB_ACCOUNT_BALANCES_MAX_LIMIT, priority }));
}

export type AllAtOncePath =
  | '/wallet/sub_account_margin_balances'
  | '/wallet/sub_account_futures_balances'
  | '/wallet/sub_account_cross_margin_balances';

/** One request for every sub-account. The records keep the wire shape of §2.8. */
export function subAccountBalancesAllAtOnce<T = { uid: string; available: unknown }>(client: ApiClient, path: AllAtOncePath, priority: Priority = 'visible'): Promise<T[]> {
  return client.request<T[]>({ method: 'GET', path, priority });
}
