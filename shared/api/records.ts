import { z } from 'zod';
import { DecimalString } from '../money.ts';

// Wire records keep the spec's field names (§2); no mapping layer.

/** §2.9 total balance: account types the spec lists for `details`. */
export const ACCOUNT_TYPES = [
  'cross_margin', 'spot', 'finance', 'margin', 'quant', 'futures', 'delivery', 'warrant', 'cbbc', 'meme_box',
  'options', 'payment',
] as const;

/** §4.1 GET /wallet/total_balance: target currencies. */
export const VALUATION_CURRENCIES = ['BTC', 'CNY', 'USD', 'USDT'] as const;
export type ValuationCurrency = (typeof VALUATION_CURRENCIES)[number];

const TotalBalanceDetail = z.object({
  amount: DecimalString,
  currency: z.string(),
  unrealised_pnl: DecimalString.optional(),
  borrowed: DecimalString.optional(),
});

export const TotalBalance = z.object({
  total: z.object({
    amount: DecimalString,
    currency: z.string(),
    unrealised_pnl: DecimalString.optional(),
    borrowed: DecimalString.optional(),
  }),
  // Keyed by account type; an account type the desk does not know yet is kept, not dropped.
  details: z.record(z.string(), TotalBalanceDetail),
});
export type TotalBalance = z.infer<typeof TotalBalance>;

/** §2.11 */
export const ErrorBody = z.object({
  label: z.string(),
  message: z.string().optional(),
  detail: z.string().optional(),
});
