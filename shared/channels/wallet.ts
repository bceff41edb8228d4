import { z } from 'zod';
import { SavedAddress, WithdrawalChain, WithdrawalLimits } from '../api/records.ts';

// The exchange's wallet reads (chains, limits, saved addresses) and withdrawal cancellation.

export const walletChannels = {
  /** Withdrawals the exchange holds and may still cancel (after a freeze, offered in one step). */
  withdrawalsCancellable: {
    request: z.object({}).strict(),
    response: z.array(
      z.object({
        intent: z.string(),
        exchange_id: z.string(),
        currency: z.string(),
        amount: z.string(),
        address: z.string(),
        status: z.string(),
      }),
    ),
  },
  /** DELETE /withdrawals/{id} for each: makes the money safer, so it needs no quorum. */
  withdrawalsCancel: {
    request: z.object({ exchange_ids: z.array(z.string().min(1).max(64)).min(1).max(100) }).strict(),
    response: z.array(z.object({ exchange_id: z.string(), ok: z.boolean(), message: z.string() })),
  },
  /** §2.2 chains of a currency with their flags (for the withdraw form). */
  walletCurrencyChains: {
    request: z.object({ currency: z.string().trim().min(1).max(32) }).strict(),
    response: z.array(WithdrawalChain),
  },
  /** §2.7 fees and limits (every currency when none is named). */
  walletWithdrawStatus: {
    request: z.object({ currency: z.string().trim().min(1).max(32).optional() }).strict(),
    response: z.array(WithdrawalLimits),
  },
  /** §2.9 the exchange's saved addresses, with their verified mark. */
  walletSavedAddresses: {
    request: z.object({ currency: z.string().trim().min(1).max(32) }).strict(),
    response: z.array(SavedAddress),
  },
} as const;
