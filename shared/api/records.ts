import { z } from 'zod';
import { DecimalString } from '../money.ts';

// One schema per wire record the desk reads, with the spec's field names (§2, §4.4); no mapping layer.
// Every record is a loose object: a field the desk does not use is kept as it came, never stripped, so
// an exchange that adds fields breaks nothing. The fields the desk uses are required and typed: the
// client refuses an answer that lacks one (electron/core/client/client.ts, `request(req, Schema)`).

/** §1 "Time and data types": a Unix time as an integer, a decimal number, or either as a string. */
export const WireTime = z.union([z.number().nonnegative(), z.string().regex(/^\d+(\.\d+)?$/, 'must be a Unix time')]);
/** integer(int64) ids: JSON numbers, or strings when a relay keeps them exact. */
export const WireInt = z.union([z.number().int(), z.string().regex(/^-?\d+$/, 'must be an integer')]);
/** §2.2 integer flags: 0 means enabled / no. */
const Flag = z.union([z.literal(0), z.literal(1)]);
const DecimalMap = z.record(z.string(), DecimalString);

/** §2.9 total balance: account types the spec lists for `details`. */
export const ACCOUNT_TYPES = [
  'cross_margin',
  'spot',
  'finance',
  'margin',
  'quant',
  'futures',
  'delivery',
  'warrant',
  'cbbc',
  'meme_box',
  'options',
  'payment',
] as const;

export { VALUATION_CURRENCIES, type ValuationCurrency } from './valuation.ts';

const Amount = z.looseObject({
  amount: DecimalString,
  currency: z.string(),
  unrealised_pnl: DecimalString.optional(),
  borrowed: DecimalString.optional(),
});

/** §2.9 GET /wallet/total_balance */
export const TotalBalance = z.looseObject({
  total: Amount,
  // Keyed by account type; an account type the desk does not know yet is kept, not dropped.
  details: z.record(z.string(), Amount),
});
export type TotalBalance = z.infer<typeof TotalBalance>;

/** §2.1 GET /wallet/deposit_address */
export const DepositAddress = z.looseObject({
  currency: z.string(),
  address: z.string(),
  multichain_addresses: z.array(
    z.looseObject({
      chain: z.string(),
      address: z.string(),
      payment_id: z.string().optional(),
      obtain_failed: Flag,
    }),
  ),
});
export type DepositAddress = z.infer<typeof DepositAddress>;

/** §2.2 GET /wallet/currency_chains */
export const Chain = z.looseObject({
  chain: z.string(),
  name_en: z.string(),
  is_disabled: Flag,
  is_deposit_disabled: Flag,
  is_withdraw_disabled: Flag,
});
export type Chain = z.infer<typeof Chain>;

/** §2.2 as the withdraw form reads it: the chain's withdrawal precision and whether it needs a memo. */
export const WithdrawalChain = Chain.extend({ decimal: z.string().regex(/^\d+$/, 'must be a count of decimals'), is_tag: Flag.optional() });
export type WithdrawalChain = z.infer<typeof WithdrawalChain>;

/** §2.3 the fields of a withdrawal record, in the spec's order: what the Sandbox answers and the desk keeps. */
export const WITHDRAWAL_FIELDS = [
  'id',
  'txid',
  'block_number',
  'withdraw_order_id',
  'timestamp',
  'amount',
  'fee',
  'currency',
  'address',
  'type',
  'fail_reason',
  'timestamp2',
  'memo',
  'status',
  'chain',
] as const;

/** §2.3 GET /wallet/withdrawals (one record). `withdraw_order_id` is absent or empty when none was given. */
export const Withdrawal = z.looseObject({
  id: z.string().min(1),
  withdraw_order_id: z.string().optional(),
  timestamp: WireTime,
  amount: DecimalString,
  fee: DecimalString,
  currency: z.string(),
  address: z.string(),
  chain: z.string(),
  status: z.string().min(1),
});
export type Withdrawal = z.infer<typeof Withdrawal>;

/** §4.2 DELETE /withdrawals/{id}: answered 202 with the record in its new status. */
export const CancelledWithdrawal = z.looseObject({ id: z.string().optional(), status: z.string().min(1) });
export type CancelledWithdrawal = z.infer<typeof CancelledWithdrawal>;

/** §2.4 GET /wallet/deposits (one record). */
export const Deposit = z.looseObject({
  id: z.string().min(1),
  timestamp: WireTime,
  amount: DecimalString,
  currency: z.string(),
  chain: z.string(),
  status: z.string().min(1),
});
export type Deposit = z.infer<typeof Deposit>;

/** §2.5 TransactionID: the answer to a transfer. */
export const TransactionId = z.looseObject({ tx_id: WireInt });

/** §2.5 TransferOrderStatus, GET /wallet/order_status */
export const TransferOrderStatus = z.looseObject({ tx_id: WireInt, status: z.string().min(1) });
export type TransferOrderStatus = z.infer<typeof TransferOrderStatus>;

/** §2.5 main/sub-account transfer record, GET /wallet/sub_account_transfers */
export const SubAccountTransfer = z.looseObject({
  timest: WireTime,
  sub_account: z.string(),
  sub_account_type: z.string().optional(),
  currency: z.string(),
  amount: DecimalString,
  direction: z.enum(['to', 'from']),
  client_order_id: z.string().optional(),
  status: z.string(),
});
export type SubAccountTransfer = z.infer<typeof SubAccountTransfer>;

/** §2.6 GET /wallet/push */
export const UidTransfer = z.looseObject({
  id: WireInt,
  push_uid: WireInt,
  receive_uid: WireInt,
  currency: z.string(),
  amount: DecimalString,
  create_time: WireTime,
  status: z.string().min(1),
});
export type UidTransfer = z.infer<typeof UidTransfer>;

/** §2.7 GET /wallet/withdraw_status. `withdraw_percent` carries a "%" on the live service: kept a string. */
export const WithdrawalLimits = z.looseObject({
  currency: z.string(),
  withdraw_fix: DecimalString,
  withdraw_percent: z.string(),
  withdraw_day_limit: DecimalString,
  withdraw_day_limit_remain: DecimalString,
  withdraw_amount_mini: DecimalString,
  withdraw_eachtime_limit: DecimalString,
  withdraw_fix_on_chains: z.record(z.string(), DecimalString).optional(),
  withdraw_percent_on_chains: z.record(z.string(), z.string()).optional(),
});
export type WithdrawalLimits = z.infer<typeof WithdrawalLimits>;

/** §2.9 GET /wallet/fee */
export const Fees = z.looseObject({
  user_id: WireInt,
  taker_fee: DecimalString,
  maker_fee: DecimalString,
  futures_taker_fee: DecimalString.optional(),
  futures_maker_fee: DecimalString.optional(),
});
export type Fees = z.infer<typeof Fees>;

/** §2.9 GET /wallet/saved_address */
export const SavedAddress = z.looseObject({
  currency: z.string(),
  chain: z.string(),
  address: z.string().min(1),
  name: z.string(),
  tag: z.string().optional(),
  verified: z.enum(['0', '1']),
});
export type SavedAddress = z.infer<typeof SavedAddress>;

/** §2.8 GET /wallet/sub_account_balances */
export const SubAccountSpotBalance = z.looseObject({ uid: z.string(), available: DecimalMap, locking: DecimalMap.optional() });
export type SubAccountSpotBalance = z.infer<typeof SubAccountSpotBalance>;

const MarginSide = z.looseObject({ currency: z.string(), available: DecimalString, locked: DecimalString, borrowed: DecimalString });

/** §2.8 isolated margin account of one currency pair (also the shape of GET /margin/accounts, §4.4). */
export const MarginPairAccount = z.looseObject({ currency_pair: z.string(), base: MarginSide, quote: MarginSide });
export type MarginPairAccount = z.infer<typeof MarginPairAccount>;

/** §2.8 GET /wallet/sub_account_margin_balances */
export const SubAccountMarginBalance = z.looseObject({ uid: z.string(), available: z.array(MarginPairAccount) });
export type SubAccountMarginBalance = z.infer<typeof SubAccountMarginBalance>;

/**
 * §2.8 perpetual futures account. The spec says the account object may be empty (a settle currency the
 * user never opened), so its figures are checked when present rather than required.
 */
export const FuturesAccount = z.looseObject({
  total: DecimalString.optional(),
  available: DecimalString.optional(),
  unrealised_pnl: DecimalString.optional(),
  currency: z.string().optional(),
});
export type FuturesAccount = z.infer<typeof FuturesAccount>;

/** §2.8 GET /wallet/sub_account_futures_balances: keyed by settle currency. */
export const SubAccountFuturesBalance = z.looseObject({ uid: z.string(), available: z.record(z.string(), FuturesAccount) });
export type SubAccountFuturesBalance = z.infer<typeof SubAccountFuturesBalance>;

/** §2.8 cross margin account (also the core of GET /margin/cross/accounts, §4.4). */
export const CrossMarginAccount = z.looseObject({
  user_id: WireInt,
  balances: z.record(z.string(), z.looseObject({ available: DecimalString, freeze: DecimalString, borrowed: DecimalString })),
  total: DecimalString,
  borrowed: DecimalString,
  net: DecimalString,
  risk: DecimalString,
});
export type CrossMarginAccount = z.infer<typeof CrossMarginAccount>;

/** §2.8 GET /wallet/sub_account_cross_margin_balances */
export const SubAccountCrossMarginBalance = z.looseObject({ uid: z.string(), available: CrossMarginAccount });
export type SubAccountCrossMarginBalance = z.infer<typeof SubAccountCrossMarginBalance>;

// §4.4 account reads: the spec names them without shapes; the fields are the live service's (the same
// ones the Sandbox serves, simulator/README.md), and the desk requires only what it shows.

/** §4.4 GET /spot/accounts (one currency). */
export const SpotAccount = z.looseObject({ currency: z.string(), available: DecimalString, locked: DecimalString });
export type SpotAccount = z.infer<typeof SpotAccount>;

/** §4.4 GET /futures/{settle}/accounts: the caller's own account is opened, so its figures are required. */
export const OwnFuturesAccount = FuturesAccount.extend({ total: DecimalString, available: DecimalString, currency: z.string() });
export type OwnFuturesAccount = z.infer<typeof OwnFuturesAccount>;

/** §2.9 small balance item (GET /wallet/small_balance). */
export const SmallBalance = z.looseObject({
  currency: z.string(),
  available_balance: DecimalString,
  estimated_as_btc: DecimalString,
  convertible_to_gt: DecimalString,
});
export type SmallBalance = z.infer<typeof SmallBalance>;

/** §2.9 small balance history item (GET /wallet/small_balance_history). */
export const SmallBalanceRecord = z.looseObject({
  id: z.union([z.string(), z.number()]).transform(String),
  currency: z.string(),
  amount: DecimalString,
  gt_amount: DecimalString,
  create_time: WireTime,
});
export type SmallBalanceRecord = z.infer<typeof SmallBalanceRecord>;

/** §4.1 GET /wallet/getLowCapExchangeList: currency names. */
export const LowCapList = z.array(z.string());

/** An answer that is a list of one record kind. */
export const listOf = <S extends z.ZodType>(record: S) => z.array(record);

/** What a write's answer may carry (§2.5 TransactionID, §4.2 withdrawal or push id); the executor reads it itself. */
export const WriteAnswer = z.looseObject({}).optional();

/** §2.11 */
export const ErrorBody = z.object({
  label: z.string(),
  message: z.string().optional(),
  detail: z.string().optional(),
});
