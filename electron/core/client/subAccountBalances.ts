import type { z } from 'zod';
import {
  SubAccountCrossMarginBalance,
  SubAccountFuturesBalance,
  SubAccountMarginBalance,
  SubAccountSpotBalance,
} from '../../../shared/api/records.ts';
import type { ListAnswer, Priority } from './client.ts';
import { flatten, pagesByNumber, type RecordReader } from './pagination.ts';

// §4.1 / §2.8. Spot balances of sub-accounts come in pages (page/limit, at most 100 per page); the
// margin, futures and cross-margin reads return every sub-account in one answer when `sub_uid` is omitted.
// Here in client/, the desk's one door to the exchange: the balances and rebalance code read them from here.

export const SUB_ACCOUNT_BALANCES_MAX_LIMIT = 100;

export function subAccountSpotBalances(client: RecordReader, priority: Priority = 'visible'): AsyncGenerator<SubAccountSpotBalance> {
  return flatten(
    pagesByNumber(client, {
      path: '/wallet/sub_account_balances',
      record: SubAccountSpotBalance,
      limit: SUB_ACCOUNT_BALANCES_MAX_LIMIT,
      priority,
    }),
  );
}

/** The three sub-account balance reads that answer every sub-account at once, with their record schemas. */
export const ALL_AT_ONCE = {
  '/wallet/sub_account_margin_balances': SubAccountMarginBalance,
  '/wallet/sub_account_futures_balances': SubAccountFuturesBalance,
  '/wallet/sub_account_cross_margin_balances': SubAccountCrossMarginBalance,
} as const;
export type AllAtOncePath = keyof typeof ALL_AT_ONCE;

/**
 * One request for every sub-account. The records keep the wire shape of §2.8; each is checked on its own,
 * and a caller that needs all of them passes the answer to `everyRecord`.
 */
export function subAccountBalancesAllAtOnce<P extends AllAtOncePath>(
  client: RecordReader,
  path: P,
  priority: Priority = 'visible',
): Promise<ListAnswer<z.output<(typeof ALL_AT_ONCE)[P]>>> {
  // The index by a generic path loses the record type that ALL_AT_ONCE[path] has for each concrete path.
  return client.requestList({ method: 'GET', path, priority }, ALL_AT_ONCE[path]) as Promise<ListAnswer<z.output<(typeof ALL_AT_ONCE)[P]>>>;
}
