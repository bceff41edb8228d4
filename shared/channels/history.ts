import { z } from 'zod';
import { Notices } from '../notices.ts';
import { CsvExport } from '../csvExport.ts';
import { UnreadRecords } from '../unread.ts';
import {
  DepositAddress,
  DepositPage,
  HISTORY_KINDS,
  HistoryPageRequest,
  HistoryQuery,
  HistoryStatus,
  TimelineEntry,
  TransferPage,
  UidTransferPage,
  UnsentItem,
  WithdrawalPage,
  WithdrawalRow,
} from '../history.ts';
import { IntentView } from './writes.ts';

// History (docs/histories.md): one page at a time from the core's cache; never a whole list.

export const historyChannels = {
  withdrawalsList: { request: HistoryPageRequest, response: WithdrawalPage },
  depositsList: { request: HistoryPageRequest, response: DepositPage },
  transfersList: { request: HistoryPageRequest, response: TransferPage },
  uidTransfersList: { request: HistoryPageRequest, response: UidTransferPage },
  /**
   * Withdrawals this desk sent that the exchange's list, as last read, does not hold yet (sent, answered or
   * in doubt), the newest first: the Withdrawals page shows them at once, as not yet confirmed by the exchange.
   */
  withdrawalsSentUnlisted: { request: z.object({}).strict(), response: z.object({ items: z.array(IntentView) }) },
  /** One withdrawal with every status the desk saw and when, and the journal entry that sent it when the desk did. */
  withdrawalDetail: {
    request: z.object({ id: z.string().min(1).max(128) }).strict(),
    response: z.object({
      record: WithdrawalRow,
      timeline: z.array(TimelineEntry),
      intent: IntentView.nullable(),
      /** Whether the desk offers to cancel it (shared/api/statuses.ts says in which statuses, and why). */
      cancellable: z.boolean(),
    }),
  },
  /** The whole filtered, sorted list as CSV text (the renderer saves it where the operator chooses). */
  historyExport: {
    request: z
      .object({ kind: z.enum(HISTORY_KINDS), query: HistoryQuery.default({ filters: {}, sort: { by: 'time', dir: 'desc' } }) })
      .strict(),
    response: CsvExport,
  },
  historyStatus: { request: z.object({}).strict(), response: HistoryStatus },
  /** Records the latest list answers set aside as malformed, across every read of the active profile. */
  unreadRecords: { request: z.object({}).strict(), response: UnreadRecords },
  noticesList: { request: z.object({}).strict(), response: Notices },
  /** Marks notices read: those named, or all when `ids` is left out. */
  noticesRead: { request: z.object({ ids: z.array(z.number().int().nonnegative()).max(500).optional() }).strict(), response: Notices },
  /** Reads what is new now (the operator's Refresh); answers when that sync is over. */
  historySync: { request: z.object({}).strict(), response: HistoryStatus },
  /** Outflows not sent by this desk: unacknowledged first, newest first. */
  unsentList: {
    request: z.object({ include_acknowledged: z.boolean().default(false) }).strict(),
    response: z.array(UnsentItem),
  },
  unsentAcknowledge: {
    request: z
      .object({
        kind: z.enum(['withdrawals', 'uid_transfers']),
        id: z.string().min(1).max(128),
        note: z.string().trim().min(1, 'say what you found').max(500),
      })
      .strict(),
    response: UnsentItem,
  },
  /** DELETE /withdrawals/{id} (§4.2): answered 202, the outcome is read from the record's status later. */
  withdrawalCancel: {
    request: z.object({ id: z.string().regex(/^w?\d{1,20}$/, 'a withdrawal id such as w123') }).strict(),
    response: z.object({ id: z.string(), status: z.string(), http_status: z.literal(202) }),
  },
  /** §2.1 for one currency. */
  depositAddress: {
    request: z
      .object({
        currency: z
          .string()
          .trim()
          .regex(/^[A-Za-z0-9_]{1,32}$/, 'a currency name such as USDT'),
      })
      .strict(),
    response: DepositAddress,
  },
} as const;
