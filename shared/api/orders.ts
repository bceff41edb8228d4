import { z } from 'zod';
import { DecimalString } from '../money.ts';

// Spot orders (§2.10, §3.5, §4.4). The spec names the endpoints without shapes; the field names follow
// the live service's public API v4 documentation (the gateapi SDKs' Order, Trade, CancelOrderResult
// and OrderBook models); simulator/README.md says where each choice comes from.

export { ORDER_STATUSES, type OrderStatus } from './orderStatuses.ts';

/**
 * §2.10 `finish_as`. The spec's list, plus `open` and `cancelled`, which the live service's
 * documentation adds (an order still open; cancelled by its owner). An unknown value is shown as it came.
 */
export const FINISH_AS = {
  open: 'Still open',
  filled: 'Filled in full',
  cancelled: 'Cancelled by the user',
  stp: 'Cancelled by self-trade prevention',
  ioc: 'Time in force IOC: the unfilled rest was cancelled',
  poc: 'Post-only: it would have taken liquidity, so it was cancelled',
  fok: 'Fill-or-kill: it could not fill in full, so it was cancelled',
  liquidate_cancelled: 'Cancelled by a liquidation',
  small: 'The amount left was too small to trade',
  depth_not_enough: 'Not enough depth on the book',
  trader_not_enough: 'Not enough counterparties',
  price_protect_cancelled: 'Cancelled by price protection',
  unknown: 'Unknown',
} as const;
export type FinishAs = keyof typeof FINISH_AS;

export const TIME_IN_FORCE = {
  gtc: 'Good till cancelled',
  ioc: 'Immediate or cancel: the rest is cancelled',
  poc: 'Post-only: refused if it would take liquidity',
  fok: 'Fill or kill: all at once or nothing',
} as const;
export type TimeInForce = keyof typeof TIME_IN_FORCE;

/** §2.10 self-trade prevention actions; `-` in a response means none was given. */
export const STP_ACTS = {
  cn: 'Cancel newest: the incoming order is cancelled',
  co: 'Cancel oldest: the resting order is cancelled',
  cb: 'Cancel both',
} as const;

export const ORDER_TYPES = ['limit', 'market'] as const;
export const ORDER_ACCOUNTS = ['spot', 'margin'] as const;
export const ORDER_SIDES = ['buy', 'sell'] as const;

/** §2.10, §8.5: `t-` then at most 28 of 0-9 A-Z a-z _ - . (live documentation for the characters). */
export const ORDER_TEXT_RE = /^t-[0-9A-Za-z_.-]{1,28}$/;
/** §2.10: a custom id stands for the order id this long after creation. */
export const ORDER_TEXT_LOOKUP_SEC = 30 * 60;

export const SpotOrder = z.object({
  id: z.string(),
  text: z.string(),
  amend_text: z.string(),
  create_time: z.string(),
  update_time: z.string(),
  create_time_ms: z.number().int(),
  update_time_ms: z.number().int(),
  status: z.string(),
  currency_pair: z.string(),
  type: z.enum(ORDER_TYPES),
  account: z.string(),
  side: z.enum(ORDER_SIDES),
  amount: DecimalString,
  price: DecimalString,
  time_in_force: z.string(),
  iceberg: DecimalString,
  left: DecimalString,
  filled_amount: DecimalString,
  fill_price: DecimalString,
  filled_total: DecimalString,
  avg_deal_price: DecimalString,
  fee: DecimalString,
  fee_currency: z.string(),
  point_fee: DecimalString,
  gt_fee: DecimalString,
  gt_maker_fee: DecimalString,
  gt_taker_fee: DecimalString,
  gt_discount: z.boolean(),
  rebated_fee: DecimalString,
  rebated_fee_currency: z.string(),
  stp_id: z.number().int(),
  stp_act: z.string(),
  finish_as: z.string(),
});
export type SpotOrder = z.infer<typeof SpotOrder>;

/** GET /spot/my_trades element. */
export const SpotTrade = z.object({
  id: z.string(),
  create_time: z.string(),
  create_time_ms: z.string(),
  currency_pair: z.string(),
  side: z.enum(ORDER_SIDES),
  role: z.enum(['taker', 'maker']),
  amount: DecimalString,
  price: DecimalString,
  order_id: z.string(),
  fee: DecimalString,
  fee_currency: z.string(),
  point_fee: DecimalString,
  gt_fee: DecimalString,
  amend_text: z.string(),
  sequence_id: z.string(),
  text: z.string(),
});
export type SpotTrade = z.infer<typeof SpotTrade>;

/** POST /spot/cancel_batch_orders element. */
export const CancelOrderResult = z.object({
  currency_pair: z.string(),
  id: z.string(),
  text: z.string(),
  succeeded: z.boolean(),
  label: z.string(),
  message: z.string(),
  account: z.string(),
});

/** GET /spot/order_book: [price, amount] pairs, best first. */
export const OrderBook = z.object({
  id: z.number().int().optional(),
  current: z.number().int(),
  update: z.number().int(),
  asks: z.array(z.tuple([DecimalString, DecimalString])),
  bids: z.array(z.tuple([DecimalString, DecimalString])),
});

/** GET /spot/open_orders element. */
export const OpenOrdersOfPair = z.object({
  currency_pair: z.string(),
  total: z.number().int(),
  orders: z.array(SpotOrder),
});

/** GET /spot/currency_pairs element: the pair's trading rules (only what the desk checks is kept). */
export const CurrencyPair = z.looseObject({
  id: z.string(),
  base: z.string(),
  quote: z.string(),
  /** Taker fee rate in percent ("0.2" is 0.2 %). */
  fee: DecimalString,
  min_base_amount: z.string().optional(),
  min_quote_amount: z.string().optional(),
  max_quote_amount: z.string().optional(),
  amount_precision: z.number().int().nonnegative(),
  precision: z.number().int().nonnegative(),
  trade_status: z.string(),
});
export type CurrencyPair = z.infer<typeof CurrencyPair>;

/** GET /spot/tickers element; empty strings where the book has no side. */
export const Ticker = z.looseObject({
  currency_pair: z.string(),
  last: z.string(),
  lowest_ask: z.string(),
  highest_bid: z.string(),
});
export type Ticker = z.infer<typeof Ticker>;
