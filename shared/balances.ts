import { z } from 'zod';
import { UnreadRecord } from './unread.ts';
import { DecimalString } from './money.ts';
import { ACCOUNT_KINDS, MATRIX_SORT_KEYS, QUOTE_CURRENCIES } from './accountKinds.ts';

// The balances feature's part of the contract (§2.8 sub-account balances, the main account's own
// accounts, §2.9 total snapshots, risk alerts). shared/ipc.ts lists the channels; their shapes live here.

export {
  FUTURES_SETTLES,
  ACCOUNT_KINDS,
  ACCOUNT_KIND_NAMES,
  type AccountKind,
  QUOTE_CURRENCIES,
  MATRIX_SORT_KEYS,
} from './accountKinds.ts';

/** A currency a matrix can be valued in (QUOTE_CURRENCIES). */
export const QuoteCurrency = z.enum(QUOTE_CURRENCIES);
export type QuoteCurrency = z.infer<typeof QuoteCurrency>;

/** A ratio such as cross margin `risk` (1.1 = 110%), or a floor: a plain non-negative decimal. */
const Ratio = z.string().regex(/^(0|[1-9]\d{0,8})(\.\d{1,8})?$/, 'a plain decimal such as 1.5 (at most 8 decimal places)');
const Uid = z.string().regex(/^\d{1,20}$/, 'a sub-account uid is digits');
const Currency = z.string().regex(/^[A-Z0-9]{1,16}$/, 'a currency is capital letters and digits, such as USDT');

export const Cell = z.object({
  /** Value in the quote currency, cut to 8 decimals; "0" when the account holds nothing. */
  value: DecimalString,
  /** Net amount per currency held in this account kind. */
  amounts: z.record(z.string(), DecimalString),
  /** Currencies held that no spot ticker prices: left out of `value`. */
  unpriced: z.array(z.string()),
});
export type Cell = z.infer<typeof Cell>;

export const MatrixRow = z.object({
  uid: z.string(),
  name: z.string(),
  cells: z.record(z.enum(ACCOUNT_KINDS), Cell),
  total: DecimalString,
  /** §2.8 cross margin `risk` (null when the sub-account has no cross margin account). */
  cross_risk: z.string().nullable(),
  /** The lowest isolated-margin `mmr` of its pairs (null without a pair). */
  margin_risk: z.string().nullable(),
  /** Alerts raised and not yet acknowledged, or still standing. */
  alerts: z.number().int().nonnegative(),
});
export type MatrixRow = z.infer<typeof MatrixRow>;

export const FiguresSource = z.enum(['cache', 'exchange']);
export type FiguresSource = z.infer<typeof FiguresSource>;

export const LoadStatus = z.object({
  state: z.enum(['empty', 'loading', 'ready', 'error']),
  loaded: z.number().int().nonnegative(),
  total: z.number().int().nonnegative(),
  /** When the last complete load ended (ms since the epoch); with source 'cache', that load of an earlier run. */
  fetched_at: z.number().nullable(),
  /**
   * Where the figures shown come from: 'cache' is the desk's copy of the last complete load of an earlier
   * run (shown at once on start, until a load from the exchange ends), 'exchange' a load of this run;
   * null before any. Nothing that moves money reads figures whose source is 'cache'.
   */
  source: FiguresSource.nullable(),
  /** The last load's failure in words; its raw text in error_detail, for "Details". */
  error: z.string().nullable(),
  error_detail: z.string().nullable().optional(),
  /** Requests the last load made. */
  requests: z.number().int().nonnegative(),
  /** Records the last load set aside as malformed: the rows and totals shown leave them out. */
  unread: z.array(UnreadRecord),
});
export type LoadStatus = z.infer<typeof LoadStatus>;

export const MATRIX_PAGE_MAX = 1000;

export const MatrixQuery = z
  .object({
    quote: QuoteCurrency.default('USDT'),
    search: z.string().max(64).default(''),
    sort: z.enum(MATRIX_SORT_KEYS).default('uid'),
    desc: z.boolean().default(false),
    /** Rows whose total is below this (quote currency) are hidden; null shows every row. */
    hide_below: Ratio.nullable().default(null),
    offset: z.number().int().nonnegative().default(0),
    limit: z.number().int().min(1).max(MATRIX_PAGE_MAX).default(250),
  })
  .strict();
export type MatrixQuery = z.input<typeof MatrixQuery>;

export const MatrixPage = z.object({
  status: LoadStatus,
  quote: z.string(),
  /** Rows after search and "hide small", before paging. */
  total_rows: z.number().int().nonnegative(),
  offset: z.number().int().nonnegative(),
  rows: z.array(MatrixRow),
  /** Column totals over every filtered row (not only this page). */
  column_totals: z.record(z.enum(ACCOUNT_KINDS), DecimalString),
  grand_total: DecimalString,
});
export type MatrixPage = z.infer<typeof MatrixPage>;

const Wire = z.record(z.string(), z.unknown());

export const AlertView = z.object({
  id: z.number().int(),
  uid: z.string(),
  kind: z.enum(['cross_risk', 'margin_risk', 'low_balance']),
  /** The pair (margin_risk) or currency (low_balance); "" for cross_risk. */
  subject: z.string(),
  value: z.string(),
  threshold: z.string(),
  raised_at: z.number(),
  cleared_at: z.number().nullable(),
  acknowledged_at: z.number().nullable(),
});
export type AlertView = z.infer<typeof AlertView>;

export const SubAccountDetail = z.object({
  uid: z.string(),
  name: z.string(),
  fetched_at: z.number().nullable(),
  /** As LoadStatus.source: a transfer form takes no "available" from figures of the cache. */
  source: FiguresSource.nullable(),
  /** The last load's failure in words (the figures shown are then the ones before it). */
  error: z.string().nullable(),
  row: MatrixRow.nullable(),
  /** §2.8 records as the exchange sent them. */
  spot: z.object({ available: z.record(z.string(), z.string()), locking: z.record(z.string(), z.string()).optional() }).nullable(),
  margin: z.array(Wire),
  futures: z.record(z.string(), Wire),
  cross_margin: Wire.nullable(),
  risk_threshold: Ratio,
  floors: z.array(z.object({ currency: z.string(), floor: Ratio })),
  alerts: z.array(AlertView),
});
export type SubAccountDetail = z.infer<typeof SubAccountDetail>;

export const MainBalances = z.object({
  fetched_at: z.number(),
  quote: z.string(),
  /** Value per kind in the quote currency (same rules as a matrix row). */
  cells: z.record(z.enum(ACCOUNT_KINDS), Cell),
  total: DecimalString,
  spot: z.array(z.object({ currency: z.string(), available: z.string(), locked: z.string() })),
  margin: z.array(Wire),
  futures: z.record(z.string(), Wire),
  cross_margin: Wire.nullable(),
});
export type MainBalances = z.infer<typeof MainBalances>;

export const Snapshot = z.object({ at: z.number(), currency: z.string(), amount: DecimalString });

export const BalanceSettings = z
  .object({
    /** 0 turns auto-refresh off. */
    auto_refresh_seconds: z
      .number()
      .int()
      .refine((n) => n === 0 || (n >= 30 && n <= 3600), 'auto-refresh is 0 (off) or 30 to 3600 seconds'),
    /** Alert when cross margin `risk` or isolated `mmr` falls below this ratio (1.1 = 110% is liquidation). */
    default_risk_threshold: Ratio,
  })
  .strict();
export type BalanceSettings = z.infer<typeof BalanceSettings>;

export const ThresholdInput = z.object({ uid: Uid, risk_threshold: Ratio.nullable() }).strict();
export const FloorInput = z.object({ uid: Uid, currency: Currency, floor: Ratio.nullable() }).strict();

export const LoadProgress = z.object({
  scope: z.enum(['sub_accounts', 'main']),
  loaded: z.number().int().nonnegative(),
  total: z.number().int().nonnegative(),
  done: z.boolean(),
  error: z.string().nullable(),
});
