import type { IntentView } from '../journal/intents.ts';
import type { HistoryDb, StoredRow } from '../cache/historyDb.ts';

// "Not sent by this desk": an outflow (a withdrawal, or a UID transfer this account sent) dated after
// the desk began watching the profile that no journal entry accounts for. This is how a stolen key is
// noticed: whoever holds it can send, but cannot write this desk's journal (its entries are MAC'd
// under a key the vault protects). Older history is the baseline and never flagged.

const bareId = (id: string) => id.replace(/^w/, '');

/** The journal entry that sent this withdrawal, matched by withdraw_order_id, else by the exchange's id. */
export function withdrawalIntent(row: Record<string, string>, intents: IntentView[]): IntentView | null {
  const byOrderId = row.withdraw_order_id
    ? intents.find((i) => i.kind === 'withdrawal' && i.client_id === row.withdraw_order_id)
    : undefined;
  return (
    byOrderId ??
    intents.find((i) => i.kind === 'withdrawal' && i.exchange_id !== undefined && bareId(i.exchange_id) === bareId(row.id ?? '')) ??
    null
  );
}

/**
 * A UID transfer carries no client id (§4.2): matched by the id the exchange answered, else, while the
 * answer is not journaled yet, by a sent intent with the same receiver, currency and amount.
 */
export function uidTransferIntent(row: Record<string, string>, intents: IntentView[]): IntentView | null {
  const uid = intents.filter((i) => i.kind === 'uid_transfer');
  return (
    uid.find((i) => i.exchange_id === row.id) ??
    uid.find(
      (i) =>
        i.exchange_id === undefined &&
        i.attempts > 0 &&
        i.state !== 'refused' &&
        String(i.body.receive_uid) === row.receive_uid &&
        String(i.body.currency) === row.currency &&
        String(i.body.amount) === row.amount,
    ) ??
    null
  );
}

export interface OutflowCheck {
  /** Newly flagged records. */
  flagged: Array<{ kind: 'withdrawals' | 'uid_transfers'; row: StoredRow }>;
}

/**
 * Flags every unexplained outflow after `sinceSec`; a flag whose record a journal entry now explains
 * (the desk's own write, journaled before it was sent) is lifted unless an operator acknowledged it.
 */
export function checkOutflows(db: HistoryDb, sinceSec: number, intents: IntentView[]): OutflowCheck {
  const flagged: OutflowCheck['flagged'] = [];
  const since = sinceSec * 1000;
  db.tx(() => {
    for (const row of db.since('withdrawals', since)) {
      if (withdrawalIntent(row.wire, intents)) db.unflag('withdrawals', row.key);
      else if (db.flag('withdrawals', row.key)) flagged.push({ kind: 'withdrawals', row });
    }
    for (const row of db.since('uid_transfers', since)) {
      if (row.wire.transaction_type !== 'withdraw') continue;
      if (uidTransferIntent(row.wire, intents)) db.unflag('uid_transfers', row.key);
      else if (db.flag('uid_transfers', row.key)) flagged.push({ kind: 'uid_transfers', row });
    }
  });
  return { flagged };
}
