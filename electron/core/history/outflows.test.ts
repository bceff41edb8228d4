import { describe, expect, it } from 'vitest';
import { isFinalWithdrawalStatus } from '../../../shared/api/statuses.ts';
import { HistoryDb } from '../cache/historyDb.ts';
import type { IntentView } from '../journal/intents.ts';
import { IS_FINAL } from '../sync/historyCache.ts';
import { checkOutflows } from './outflows.ts';

const WATCH = 1_800_000_000;

function intent(over: Partial<IntentView>): IntentView {
  return {
    id: 'i1',
    kind: 'uid_transfer',
    client_id: null,
    body: {},
    state: 'done',
    created_at: 0,
    updated_at: 0,
    attempts: 1,
    absent_lookups: 0,
    ...over,
  };
}

function push(id: string, t: number, over: Record<string, string> = {}) {
  return {
    id,
    push_uid: '10000001',
    receive_uid: '10100001',
    currency: 'USDT',
    amount: '5',
    create_time: t,
    status: 'RECEIVED',
    message: '',
    transaction_type: 'withdraw',
    ...over,
  };
}

describe('outflows not sent by this desk', () => {
  it('flags sent UID transfers after the watch began that no journal entry explains, and nothing before it or received', () => {
    const db = new HistoryDb({ path: ':memory:' });
    db.upsert(
      'uid_transfers',
      [
        push('1', WATCH - 60),
        push('2', WATCH + 60),
        push('3', WATCH + 61, { transaction_type: 'deposit' }),
        push('4', WATCH + 62),
        push('5', WATCH + 63, { receive_uid: '10200001', amount: '7.5' }),
      ],
      IS_FINAL.uid_transfers,
    );
    db.upsert(
      'withdrawals',
      [{ id: 'w9', timestamp: WATCH + 5, amount: '1', currency: 'USDT', status: 'DONE', withdraw_order_id: 'mine_1', address: 'T1' }],
      isFinalWithdrawalStatus,
    );
    const intents = [
      intent({ id: 'a', exchange_id: '4' }),
      // Sent, its answer not journaled yet: matched by receiver, currency and amount.
      intent({ id: 'b', state: 'in_flight', body: { receive_uid: 10200001, currency: 'USDT', amount: '7.5' } }),
      intent({ id: 'c', kind: 'withdrawal', client_id: 'mine_1' }),
    ];
    const { flagged } = checkOutflows(db, WATCH, intents);
    expect(flagged.map((f) => `${f.kind}:${f.row.key}`)).toEqual(['uid_transfers:2']);
    // Checked again, it is not flagged twice; acknowledged, it leaves the count but keeps its note.
    expect(checkOutflows(db, WATCH, intents).flagged).toEqual([]);
    expect(db.unsentCount()).toBe(1);
    expect(db.acknowledge('uid_transfers', '2', 'colleague')).toBe(true);
    expect(db.unsentCount()).toBe(0);
    expect(db.get('uid_transfers', '2')!.unsent).toMatchObject({ state: 'acknowledged', note: 'colleague' });
    db.close();
  });
});
