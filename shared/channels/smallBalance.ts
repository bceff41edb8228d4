import { z } from 'zod';
import { CsvExport } from '../csvExport.ts';
import {
  DustAccount,
  DustConvertRequest,
  DustHistoryPage,
  DustHistoryRequest,
  DustOverview,
  DustProgress,
  DustQueued,
  DustReview,
  LowCapList,
} from '../smallBalance.ts';

// Small balances and the exchange's low-liquidity list (§2.9, §4.1).

export const smallBalanceChannels = {
  /** Every account's small balances (the main account and each sub-account whose key the profile holds), with totals. */
  dustList: { request: z.object({}).strict(), response: DustOverview },
  /** The selected balances, re-read in the core and reviewed as one batch under the policy; nothing is stored. */
  dustReview: { request: DustConvertRequest, response: DustReview },
  /** Drafts the selected balances' conversion as one batch; operators approve it in the confirmation window. */
  dustConvert: { request: DustConvertRequest, response: DustQueued },
  /** Where each row of a conversion batch stands, from the journal. */
  dustProgress: { request: z.object({ ref: z.string().min(1).max(64) }).strict(), response: DustProgress },
  /** One page of an account's conversions (§8.1: default 100, 1 to 100). */
  dustHistory: { request: DustHistoryRequest, response: DustHistoryPage },
  /** An account's conversions (every page) as CSV. */
  dustHistoryCsv: {
    request: z.object({ account: DustAccount, currency: z.string().trim().min(1).max(32).optional() }).strict(),
    response: CsvExport,
  },
  /** §4.1 low-liquidity currencies (cached by the core, refreshed after a while). */
  lowCapCurrencies: { request: z.object({}).strict(), response: LowCapList },
} as const;
