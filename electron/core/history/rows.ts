import type { DepositRow, HistoryKind, TransferRow, UidTransferRow, UnsentItem, WithdrawalRow } from '../../../shared/history.ts';
import type { StoredRow } from '../cache/historyDb.ts';

// Rows as the contract carries them: the wire fields as stored, and what the desk adds under `desk`.

type RowOf = { withdrawals: WithdrawalRow; deposits: DepositRow; transfers: TransferRow; uid_transfers: UidTransferRow };

export function toRow<K extends HistoryKind>(kind: K, r: StoredRow): RowOf[K] {
  const desk = { first_seen_at: r.first_seen, unsent: r.unsent };
  return (kind === 'transfers' ? { key: r.key, ...r.wire, desk } : { ...r.wire, desk }) as unknown as RowOf[K];
}

export function toUnsent(kind: 'withdrawals' | 'uid_transfers', r: StoredRow): UnsentItem {
  const w = r.wire;
  return {
    kind,
    id: r.key,
    currency: w.currency ?? '',
    amount: w.amount ?? '',
    status: w.status ?? '',
    to: kind === 'withdrawals' ? `${w.address}${w.chain ? ` (${w.chain})` : ''}` : `uid ${w.receive_uid}`,
    timestamp: kind === 'withdrawals' ? (w.timestamp ?? '') : (w.create_time ?? ''),
    flag: r.unsent!,
  };
}
