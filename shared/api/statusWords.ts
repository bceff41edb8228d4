import type { WriteKind } from './writes.ts';
import { ORDER_STATUSES, type OrderStatus } from './orderStatuses.ts';
import {
  DEPOSIT_STATUSES,
  TRANSFER_STATUSES,
  UID_TRANSFER_STATUSES,
  WITHDRAWAL_CREATE_ONLY_STATUSES,
  WITHDRAWAL_STATUSES,
  type WithdrawalStatus,
} from './statuses.ts';

// Every status the desk can meet, one table per kind, each with words and a tone: finished well (ok),
// finished badly (bad), still moving (watched), or finished with nothing to judge (plain). The tables
// are typed by the spec's lists, so a status added to a list without words or a tone fails the build.
// "Unknown status" is left for a value the spec does not list: it is shown as it came, never dropped.

export type StatusTone = 'ok' | 'bad' | 'moving' | 'plain';
export interface StatusEntry {
  words: string;
  tone: StatusTone;
}
export type StatusKind = 'withdrawal' | 'deposit' | 'transfer' | 'uid_transfer' | 'spot_order';

function withTones<K extends string>(words: Record<K, string>, tones: Record<K, StatusTone>): Record<K, StatusEntry> {
  const out = {} as Record<K, StatusEntry>;
  for (const k of Object.keys(words) as K[]) out[k] = { words: words[k], tone: tones[k] };
  return out;
}

/** §3.1; FAIL is not final (pending confirmation) but already a failure to look at. */
const WITHDRAWAL_TABLE = withTones<WithdrawalStatus>(
  { ...WITHDRAWAL_STATUSES, ...WITHDRAWAL_CREATE_ONLY_STATUSES },
  {
    BCODE: 'moving',
    CANCEL: 'bad',
    CANCELPEND: 'moving',
    DONE: 'ok',
    EXTPEND: 'moving',
    FAIL: 'bad',
    FVERIFY: 'moving',
    LOCKED: 'moving',
    MANUAL: 'moving',
    REJECT: 'bad',
    REQUEST: 'moving',
    REVIEW: 'moving',
    INVALID: 'bad',
    VERIFY: 'moving',
    PROCES: 'moving',
    PEND: 'moving',
    DMOVE: 'moving',
  },
);

/** §3.2; BLOCKED is refreshed like any status that is not final, yet it is a problem already. */
const DEPOSIT_TABLE = withTones<keyof typeof DEPOSIT_STATUSES>(DEPOSIT_STATUSES, {
  BLOCKED: 'bad',
  DEP_CREDITED: 'moving',
  DONE: 'ok',
  INVALID: 'bad',
  MANUAL: 'moving',
  PEND: 'moving',
  REVIEW: 'moving',
  TRACK: 'moving',
});

/** §3.3, and `success`: the only status §2.5 gives a main/sub transfer record in the history list. */
const TRANSFER_TABLE: Record<(typeof TRANSFER_STATUSES)[number] | 'success', StatusEntry> = {
  PENDING: { words: 'In progress', tone: 'moving' },
  SUCCESS: { words: 'Done: the amount moved', tone: 'ok' },
  success: { words: 'Done: the amount moved', tone: 'ok' },
  FAIL: { words: 'Failed: nothing moved', tone: 'bad' },
  PARTIAL_SUCCESS: { words: 'Partly done: only part of the amount moved', tone: 'bad' },
};

/** §3.4 */
const UID_TRANSFER_TABLE: Record<(typeof UID_TRANSFER_STATUSES)[number], StatusEntry> = {
  CREATING: { words: 'Being created', tone: 'moving' },
  PENDING: { words: 'Waiting for the receiver to accept', tone: 'moving' },
  CANCELLING: { words: 'Being cancelled', tone: 'moving' },
  CANCELLED: { words: 'Cancelled: nothing moved', tone: 'bad' },
  REFUSING: { words: 'Being refused by the receiver', tone: 'moving' },
  REFUSED: { words: 'Refused by the receiver: nothing moved', tone: 'bad' },
  RECEIVING: { words: 'Being received', tone: 'moving' },
  RECEIVED: { words: 'Received', tone: 'ok' },
};

/**
 * The live service's order states (open, closed, cancelled) and §3.5's `finished`. A cancelled order
 * is plain, not bad: cancelling is what the operator (or the order's time in force) asked for.
 */
const SPOT_ORDER_TABLE: Record<OrderStatus | 'finished', StatusEntry> = {
  ...withTones<OrderStatus>(ORDER_STATUSES, { open: 'moving', closed: 'ok', cancelled: 'plain' }),
  finished: { words: 'Finished (how it ended is in its finish_as)', tone: 'plain' },
};

export const STATUS_TABLES: Record<StatusKind, Readonly<Record<string, StatusEntry>>> = {
  withdrawal: WITHDRAWAL_TABLE,
  deposit: DEPOSIT_TABLE,
  transfer: TRANSFER_TABLE,
  uid_transfer: UID_TRANSFER_TABLE,
  spot_order: SPOT_ORDER_TABLE,
};

/** What the desk does with a status it does not know: it keeps asking until it changes. */
const UNKNOWN_WATCH: Record<StatusKind, string> = {
  withdrawal: 'watched until it changes',
  deposit: 'refreshed until it changes',
  transfer: 'watched until it changes',
  uid_transfer: 'refreshed until it changes',
  spot_order: 'refreshed until it changes',
};

/** The words and tone of `status`; a value the spec does not list is shown as it came, and watched. */
export function statusEntry(kind: StatusKind, status: string): StatusEntry & { known: boolean } {
  const e = Object.hasOwn(STATUS_TABLES[kind], status) ? STATUS_TABLES[kind][status] : undefined;
  if (e) return { ...e, known: true };
  return { words: `Unknown status "${status}" (${UNKNOWN_WATCH[kind]})`, tone: 'moving', known: false };
}

export function statusWords(kind: StatusKind, status: string): string {
  return statusEntry(kind, status).words;
}

/** Which table the status the exchange gave a journaled write is read from. */
export const INTENT_STATUS_KIND: Record<WriteKind, StatusKind> = {
  withdrawal: 'withdrawal',
  main_sub_transfer: 'transfer',
  own_transfer: 'transfer',
  sub_to_sub_transfer: 'transfer',
  sub_own_transfer: 'transfer',
  uid_transfer: 'uid_transfer',
  spot_order: 'spot_order',
  spot_cancel: 'spot_order',
  spot_cancel_all: 'spot_order',
  // A conversion has no status of its own (§4.1 answers no body); this table is never read for it.
  small_balance_convert: 'transfer',
  // Sub-account management answers carry no §3 status; a status never comes for these.
  sub_account_lock: 'transfer',
  sub_account_unlock: 'transfer',
  sub_account_key_create: 'transfer',
  sub_account_key_delete: 'transfer',
  sub_account_create: 'transfer',
};
