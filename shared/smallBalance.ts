import { z } from 'zod';
import { BatchStatus, MAX_BATCH_ROWS } from './api/batch.ts';
import { Verdict } from './api/policy.ts';

// Small balances (§2.9, §4.1): each account's dust, read with that account's own key, converted to GT as
// one reviewed batch under the approval policy, and each account's conversion history. These are the
// shapes that cross the IPC for it. Money is a decimal string throughout.

/** Whose small balances: the main account, or a sub-account whose key the profile holds. */
export const DustAccount = z.union([z.literal('main'), z.string().regex(/^\d{1,18}$/, 'must be "main" or a sub-account user id')]);
export type DustAccount = z.infer<typeof DustAccount>;

export const DustItem = z.object({
  currency: z.string(),
  available_balance: z.string(),
  estimated_as_btc: z.string(),
  convertible_to_gt: z.string(),
  /** On the exchange's low-liquidity list (§4.1 getLowCapExchangeList). */
  low_cap: z.boolean(),
});
export type DustItem = z.infer<typeof DustItem>;

export const DustAccountView = z.object({
  account: DustAccount,
  items: z.array(DustItem),
  total_btc: z.string(),
  total_gt: z.string(),
  /** Why this account's small balances could not be read (its key refused, the link), or null. */
  error: z.string().nullable(),
});
export type DustAccountView = z.infer<typeof DustAccountView>;

export const DustOverview = z.object({
  accounts: z.array(DustAccountView),
  total_btc: z.string(),
  total_gt: z.string(),
});
export type DustOverview = z.infer<typeof DustOverview>;

export const DustPick = z.strictObject({ account: DustAccount, currency: z.string().trim().min(1).max(32) });

export const DustConvertRequest = z.strictObject({
  rows: z.array(DustPick).min(1, 'select at least one small balance').max(MAX_BATCH_ROWS),
});

/** The batch as reviewed under the policy before it is drafted. */
export const DustReview = z.object({
  rows: z.array(
    z.object({ account: DustAccount, currency: z.string(), amount: z.string(), convertible_to_gt: z.string(), verdict: Verdict }),
  ),
  verdict: Verdict,
});
export type DustReview = z.infer<typeof DustReview>;

export const DustQueued = z.object({ ticket: z.string(), title: z.string(), ref: z.string(), rows: z.number().int() });

export const DUST_OUTCOMES = ['pending', 'converted', 'refused', 'skipped', 'needs_attention'] as const;
export type DustOutcome = (typeof DUST_OUTCOMES)[number];

export const DustProgressRow = z.object({
  ref: z.string(),
  account: DustAccount,
  currency: z.string(),
  amount: z.string(),
  outcome: z.enum(DUST_OUTCOMES),
  state: z.string().nullable(),
  /** The history record's id once the conversion is proven. */
  exchange_id: z.string().nullable(),
  sentence: z.string().nullable(),
});
export type DustProgressRow = z.infer<typeof DustProgressRow>;

export const DustProgress = z.object({
  ref: z.string(),
  title: z.string(),
  state: z.enum(['drafted', ...BatchStatus.shape.state.options]),
  approved_by: z.array(z.string()),
  needed: z.number().int(),
  rows: z.array(DustProgressRow),
});
export type DustProgress = z.infer<typeof DustProgress>;

/** §8.1: small-balance history pages, default 100, 1 to 100. */
export const DustHistoryRequest = z.strictObject({
  account: DustAccount,
  currency: z.string().trim().min(1).max(32).optional(),
  page: z.number().int().min(1).max(100_000).default(1),
  limit: z.number().int().min(1, 'limit is 1 to 100').max(100, 'limit is 1 to 100').default(100),
});

export const DustHistoryRow = z.object({
  id: z.string(),
  currency: z.string(),
  amount: z.string(),
  gt_amount: z.string(),
  create_time: z.number(),
});
export type DustHistoryRow = z.infer<typeof DustHistoryRow>;

export const DustHistoryPage = z.object({
  rows: z.array(DustHistoryRow),
  page: z.number().int(),
  limit: z.number().int(),
  more: z.boolean(),
});

export const LowCapList = z.object({ currencies: z.array(z.string()), fetched_at: z.number() });
export type LowCapList = z.infer<typeof LowCapList>;
