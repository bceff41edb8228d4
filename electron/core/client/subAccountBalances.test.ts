import { describe, expect, it } from 'vitest';
import { subAccountSpotBalances } from './subAccountBalances.ts';
import { collect, HistoryExchange, historyClient } from '../sync/testkit/historyExchange.ts';

// §4.1 sub-account spot balances, paged 100 at a time (§8.1) over the stand-in exchange: as many requests
// as the count needs and no more, pages numbered from 1.

const client = historyClient;

describe('sub-account balances', () => {
  for (const [subs, requests] of [
    [250, 3],
    [200, 3],
    [99, 1],
    [0, 1],
  ] as const) {
    it(`reads ${subs} sub-accounts in ${requests} request(s) of 100`, async () => {
      const ex = new HistoryExchange();
      ex.subUids = Array.from({ length: subs }, (_, i) => String(1000 + i));
      const rows = await collect(subAccountSpotBalances(client(ex)));
      expect(rows.map((r) => r.uid)).toEqual(ex.subUids);
      expect(ex.requests('/wallet/sub_account_balances')).toBe(requests);
      expect(ex.seen.map((s) => s.query.get('page'))).toEqual(Array.from({ length: requests }, (_, i) => String(i + 1)));
      expect(ex.seen.every((s) => s.query.get('limit') === '100')).toBe(true);
    });
  }
});
