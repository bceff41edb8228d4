import { z } from 'zod';
import { CurrencyPair, OrderBook, SpotOrder, SpotTrade, Ticker } from '../api/orders.ts';

// Spot market (docs/orders.md): read fresh from the exchange through the scheduler; `sub_uid` reads with that
// sub-account's own key (the profile must hold it).

const SpotPair = z.string().regex(/^[A-Z0-9]{1,16}_[A-Z0-9]{1,16}$/, 'a currency pair such as BTC_USDT');
const SubUid = z.string().regex(/^\d{1,20}$/, 'a sub-account uid is digits');

export const spotChannels = {
  spotPairs: { request: z.object({}).strict(), response: z.array(CurrencyPair) },
  spotTicker: { request: z.object({ currency_pair: SpotPair }).strict(), response: Ticker },
  spotOrderBook: {
    request: z.object({ currency_pair: SpotPair, limit: z.number().int().min(1).max(100).default(10) }).strict(),
    response: OrderBook,
  },
  /** Open orders, or finished ones newest first (at most `limit`). */
  spotOrders: {
    request: z
      .object({
        currency_pair: SpotPair,
        status: z.enum(['open', 'finished']),
        sub_uid: SubUid.optional(),
        limit: z.number().int().min(1).max(100).default(50),
      })
      .strict(),
    response: z.array(SpotOrder),
  },
  spotTrades: {
    request: z
      .object({ currency_pair: SpotPair, sub_uid: SubUid.optional(), limit: z.number().int().min(1).max(100).default(50) })
      .strict(),
    response: z.array(SpotTrade),
  },
} as const;
