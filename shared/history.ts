import { z } from 'zod';

// The history lists as the renderer asks for them: one page at a time (filters, sort, keyset cursor,
// limit), never the whole list. Rows keep the spec's wire names (§2.3–§2.6); what the desk adds sits
// under `desk`.

export const HISTORY_KINDS = ['withdrawals', 'deposits', 'transfers', 'uid_transfers'] as const;
export type HistoryKind = (typeof HISTORY_KINDS)[number];

const Word = z.string().trim().max(64);

export const HistoryFilters = z.strictObject({
  currency: Word.optional(),
  status: Word.optional(),
  chain: Word.optional(),
  /** Unix seconds, inclusive. */
  from: z.number().int().nonnegative().optional(),
  to: z.number().int().nonnegative().optional(),
  /** A fragment of the address, txid or withdraw_order_id (withdrawals, deposits), or of a uid or client_order_id (transfers). */
  search: z.string().trim().max(128).optional(),
});
export type HistoryFilters = z.infer<typeof HistoryFilters>;

export const HistorySort = z.strictObject({
  by: z.enum(['time', 'amount']).default('time'),
  dir: z.enum(['asc', 'desc']).default('desc'),
});
export type HistorySort = z.infer<typeof HistorySort>;

export const HistoryQuery = z.strictObject({
  filters: HistoryFilters.default({}),
  sort: HistorySort.default({ by: 'time', dir: 'desc' }),
});
export type HistoryQuery = z.infer<typeof HistoryQuery>;

export const HistoryPageRequest = z.strictObject({
  filters: HistoryFilters.default({}),
  sort: HistorySort.default({ by: 'time', dir: 'desc' }),
  /** The `next_cursor` of the page before; absent for the first page. */
  cursor: z.string().max(400).optional(),
  /** Instead of a cursor: the rows from this position on (a virtual list jumping into the middle). */
  offset: z.number().int().nonnegative().max(100_000_000).optional(),
  limit: z.number().int().min(1).max(1000).default(100),
});
export type HistoryPageRequest = z.input<typeof HistoryPageRequest>;

/** Whether an outflow was sent by this desk (docs/histories.md §Not sent by this desk). */
export const UnsentFlag = z.object({
  state: z.enum(['flagged', 'acknowledged']),
  flagged_at: z.number(),
  acknowledged_at: z.number().nullable(),
  note: z.string().nullable(),
});
export type UnsentFlag = z.infer<typeof UnsentFlag>;

const DeskPart = z.object({
  /** When this desk first saw the record (ms). */
  first_seen_at: z.number(),
  unsent: UnsentFlag.nullable(),
});

const S = z.string();

export const WithdrawalRow = z.object({
  id: S,
  txid: S,
  block_number: S,
  withdraw_order_id: S,
  timestamp: S,
  amount: S,
  fee: S,
  currency: S,
  address: S,
  type: S,
  fail_reason: S,
  timestamp2: S,
  memo: S,
  status: S,
  chain: S,
  desk: DeskPart,
});
export type WithdrawalRow = z.infer<typeof WithdrawalRow>;

export const DepositRow = z.object({
  id: S,
  txid: S,
  timestamp: S,
  amount: S,
  currency: S,
  address: S,
  memo: S,
  status: S,
  chain: S,
  desk: DeskPart,
});
export type DepositRow = z.infer<typeof DepositRow>;

/** §2.5 records carry no id: `key` is the desk's, a hash of the record's fields. */
export const TransferRow = z.object({
  key: S,
  timest: S,
  uid: S,
  sub_account: S,
  sub_account_type: S,
  currency: S,
  amount: S,
  direction: S,
  source: S,
  client_order_id: S,
  status: S,
  desk: DeskPart,
});
export type TransferRow = z.infer<typeof TransferRow>;

/** §2.6 ids and uids are int64 on the wire; the desk carries them as digit strings so none is rounded. */
export const UidTransferRow = z.object({
  id: S,
  push_uid: S,
  receive_uid: S,
  currency: S,
  amount: S,
  create_time: S,
  status: S,
  message: S,
  transaction_type: S,
  desk: DeskPart,
});
export type UidTransferRow = z.infer<typeof UidTransferRow>;

function page<T extends z.ZodTypeAny>(row: T) {
  return z.object({ total: z.number().int().nonnegative(), rows: z.array(row), next_cursor: z.string().nullable() });
}
export const WithdrawalPage = page(WithdrawalRow);
export const DepositPage = page(DepositRow);
export const TransferPage = page(TransferRow);
export const UidTransferPage = page(UidTransferRow);

export const TimelineEntry = z.object({ status: S, seen_at: z.number() });

export const HistoryStatus = z.object({
  /** Server time (s) up to which the lists were read; null before the first sync. */
  synced_to: z.number().nullable(),
  /** When this desk began watching the profile (s): outflows dated after it must be the desk's own. */
  watching_since: z.number().nullable(),
  syncing: z.boolean(),
  /** The last read's failure in words; its raw text (request, system code) in last_error_detail, for "Details". */
  last_error: z.string().nullable(),
  last_error_detail: z.string().nullable().optional(),
  /** Withdrawals not final (§3.1 and shared/api/statuses.ts). */
  in_flight: z.number().int().nonnegative(),
  deposits_pending: z.number().int().nonnegative(),
  unsent: z.number().int().nonnegative(),
});
export type HistoryStatus = z.infer<typeof HistoryStatus>;

export const UnsentItem = z.object({
  kind: z.enum(['withdrawals', 'uid_transfers']),
  id: S,
  currency: S,
  amount: S,
  /** Address for a withdrawal, receiving uid for a UID transfer. */
  to: S,
  timestamp: S,
  status: S,
  flag: UnsentFlag,
});
export type UnsentItem = z.infer<typeof UnsentItem>;

/** §2.1, with a QR code of each chain's address (an SVG data URL). */
export const DepositAddress = z.object({
  currency: S,
  address: S,
  min_deposit_amount: S.default(''),
  multichain_addresses: z
    .array(
      z.object({
        chain: S,
        address: S,
        payment_id: S.default(''),
        payment_name: S.default(''),
        obtain_failed: z.number().int().default(0),
        min_confirms: z.number().int().default(0),
      }),
    )
    .default([]),
});
export type DepositAddress = z.infer<typeof DepositAddress>;
