import { describe, expect, it } from 'vitest';
import { incidentWrites, stepOf, type IncidentFacts } from './steps.ts';

// The containment sequence's order and contents, from what the incident page read.

const facts: IncidentFacts = {
  uid: '101',
  keys: [
    { key: 'AKdesk000000', desk: true },
    { key: 'AKleak000000', desk: false },
  ],
  openPairs: ['BTC_USDT'],
  balances: [
    { currency: 'BTC', available: '0.5', locked: '0' },
    { currency: 'USDT', available: '10.123456789', locked: '50' },
    { currency: 'ETH', available: '0', locked: '0' },
  ],
  deskKey: true,
};

const kinds = (f: IncidentFacts) => incidentWrites(f).map((w) => w.write.kind);

describe('the incident sequence', () => {
  it("removes foreign keys, cancels, sweeps (available plus what cancels free, 8 decimals), locks, then the desk's key", () => {
    const w = incidentWrites(facts);
    expect(w.map((x) => x.write)).toEqual([
      { kind: 'sub_account_key_delete', input: { user_id: '101', key: 'AKleak000000' } },
      { kind: 'spot_cancel_all', input: { currency_pair: 'BTC_USDT', sub_uid: '101' } },
      {
        kind: 'main_sub_transfer',
        input: { sub_account: '101', sub_account_type: 'spot', currency: 'BTC', amount: '0.5', direction: 'from' },
      },
      {
        kind: 'main_sub_transfer',
        input: { sub_account: '101', sub_account_type: 'spot', currency: 'USDT', amount: '60.12345678', direction: 'from' },
      },
      { kind: 'sub_account_lock', input: { user_id: '101' } },
      { kind: 'sub_account_key_delete', input: { user_id: '101', key: 'AKdesk000000' } },
    ]);
    expect(w.map((x) => stepOf(x.note))).toEqual(w.map((_, i) => expect.objectContaining({ uid: '101', step: i + 1, of: 6 })));
  });

  it('without the desk holding a key: nothing to cancel with, only what is available is swept', () => {
    const w = incidentWrites({ ...facts, keys: [{ key: 'AKleak000000', desk: false }], openPairs: [], deskKey: false });
    expect(w.map((x) => x.write.kind)).toEqual(['sub_account_key_delete', 'main_sub_transfer', 'main_sub_transfer', 'sub_account_lock']);
    expect(w[2]!.write.input).toMatchObject({ currency: 'USDT', amount: '10.12345678' });
  });

  it('on a frozen desk: the lock first, then every key; no cancel, no sweep', () => {
    expect(kinds({ ...facts, frozen: true })).toEqual(['sub_account_lock', 'sub_account_key_delete', 'sub_account_key_delete']);
  });

  it('already locked: only the keys are left', () => {
    expect(kinds({ ...facts, locked: true })).toEqual(['sub_account_key_delete', 'sub_account_key_delete']);
  });
});
