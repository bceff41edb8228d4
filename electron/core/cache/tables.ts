import { WITHDRAWAL_FIELDS } from '../../../shared/api/records.ts';
import type { HistoryKind } from '../../../shared/history.ts';

// What each history list keeps: its wire fields (§2.3–§2.6, by their wire names), which field holds
// its time, which hold its key, and which a search looks in.

export interface TableSpec {
  kind: HistoryKind;
  /** Wire fields kept as text, in the order of the spec. */
  fields: readonly string[];
  /** The field whose value is the record's key; null when the record has none (§2.5: a hash of it). */
  keyField: string | null;
  timeField: string;
  search: readonly string[];
  /** Filters that exist on this list (currency and the date range exist on every one). */
  hasStatus: boolean;
  hasChain: boolean;
}

export const TABLES: Record<HistoryKind, TableSpec> = {
  withdrawals: {
    kind: 'withdrawals',
    fields: WITHDRAWAL_FIELDS,
    keyField: 'id',
    timeField: 'timestamp',
    search: ['address', 'txid', 'withdraw_order_id'],
    hasStatus: true,
    hasChain: true,
  },
  deposits: {
    kind: 'deposits',
    fields: ['id', 'txid', 'timestamp', 'amount', 'currency', 'address', 'memo', 'status', 'chain'],
    keyField: 'id',
    timeField: 'timestamp',
    search: ['address', 'txid'],
    hasStatus: true,
    hasChain: true,
  },
  transfers: {
    kind: 'transfers',
    fields: ['timest', 'uid', 'sub_account', 'sub_account_type', 'currency', 'amount', 'direction', 'source', 'client_order_id', 'status'],
    keyField: null,
    timeField: 'timest',
    search: ['sub_account', 'client_order_id'],
    hasStatus: true,
    hasChain: false,
  },
  uid_transfers: {
    kind: 'uid_transfers',
    fields: ['id', 'push_uid', 'receive_uid', 'currency', 'amount', 'create_time', 'status', 'message', 'transaction_type'],
    keyField: 'id',
    timeField: 'create_time',
    search: ['push_uid', 'receive_uid'],
    hasStatus: true,
    hasChain: false,
  },
};
