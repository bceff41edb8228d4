import { describe, expect, it } from 'vitest';
import type { Change, StoredRow } from '../cache/historyDb.ts';
import type { IntentView } from '../journal/intents.ts';
import { movementNotices } from './notices.ts';

// A withdrawal the desk first reads when it is already final (sent and done between two reads) must be
// told, as one that moves under the desk's eyes is; a new record still in a live status waits until it moves.

const wire = (id: string, woid: string, status: string): StoredRow =>
  ({
    key: id,
    wire: { id, withdraw_order_id: woid, amount: '250', currency: 'USDT', address: 'TJRab', chain: 'TRX', status },
  }) as unknown as StoredRow;
const rows = new Map<string, StoredRow>([
  ['w1', wire('w1', 'tdown-1', 'DONE')],
  ['w2', wire('w2', 'other-2', 'DONE')],
  ['w3', wire('w3', 'tdown-3', 'REQUEST')],
  ['w4', wire('w4', 'other-4', 'CANCEL')],
]);
const row = (c: Change) => rows.get(c.key) ?? null;
const own = [
  { id: 'a', kind: 'withdrawal', client_id: 'tdown-1' },
  { id: 'b', kind: 'withdrawal', client_id: 'tdown-3' },
] as unknown as IntentView[];

describe('movement notices', () => {
  it('tells a withdrawal first read already final, the desk’s own first and named as such', () => {
    const n = movementNotices(
      [
        { kind: 'withdrawals', key: 'w2', from: null, to: 'DONE' },
        { kind: 'withdrawals', key: 'w1', from: null, to: 'DONE' },
        { kind: 'withdrawals', key: 'w3', from: null, to: 'REQUEST' },
      ],
      row,
      own,
    );
    expect(n.map((x) => x.title)).toEqual(["This desk's withdrawal w1: DONE", 'Withdrawal w2: DONE']);
    expect(n[0]!.body).toBe('Completed: the withdrawal of 250 USDT to TJRab');
  });

  it('tells a known record that moved, with what it was, and a deposit that moved; not a new live one', () => {
    const n = movementNotices(
      [
        { kind: 'withdrawals', key: 'w4', from: 'CANCELPEND', to: 'CANCEL' },
        { kind: 'deposits', key: 'd1', from: 'TRACK', to: 'DONE' },
        { kind: 'deposits', key: 'd2', from: null, to: 'TRACK' },
        { kind: 'transfers', key: 't1', from: null, to: 'SUCCESS' },
      ],
      row,
      own,
    );
    expect(n).toEqual([
      { title: 'Withdrawal w4: CANCEL', body: 'Cancelled (was CANCELPEND): the withdrawal of 250 USDT to TJRab', tag: 'withdrawals:w4' },
      { title: 'Deposit d1: DONE', body: 'Credited to spot account (was TRACK)', tag: 'deposits:d1' },
    ]);
  });
});
