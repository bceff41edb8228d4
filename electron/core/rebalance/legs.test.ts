import { describe, expect, it } from 'vitest';
import { buildBody, signerOf } from '../writes/inputs.ts';
import { writeFor } from './legs.ts';
import { route, type AccountRef } from './route.ts';

// A planned leg between a sub-account's own accounts becomes a write signed by that sub-account's key,
// whose wire body is §4.1's own-account body exactly (the signer is the intent's, never the body's).

const legsOf = (from: AccountRef, to: AccountRef) => route(from, to).map((l) => ({ ...l, amount: '12.5' }));

describe('writeFor', () => {
  it("a sub-account's isolated margin account moves through its spot account, signed by its own key", () => {
    const [hop, out, into] = legsOf({ owner: '101', kind: 'margin', pair: 'BTC_USDT' }, { owner: '102', kind: 'spot' });
    const w = writeFor('USDT', hop!);
    expect(w).toEqual({
      kind: 'sub_own_transfer',
      input: { sub_account: '101', currency: 'USDT', from: 'margin', to: 'spot', amount: '12.5', currency_pair: 'BTC_USDT' },
    });
    expect(signerOf(w)).toBe('101');
    expect(buildBody(w, null)).toEqual({ currency: 'USDT', from: 'margin', to: 'spot', amount: '12.5', currency_pair: 'BTC_USDT' });
    // Then sub to sub through the main spot account: two main/sub transfers, each looked up by its client_order_id.
    expect([out, into].map((l) => writeFor('USDT', l!))).toEqual([
      {
        kind: 'main_sub_transfer',
        input: { sub_account: '101', sub_account_type: 'spot', currency: 'USDT', amount: '12.5', direction: 'from' },
      },
      {
        kind: 'main_sub_transfer',
        input: { sub_account: '102', sub_account_type: 'spot', currency: 'USDT', amount: '12.5', direction: 'to' },
      },
    ]);
  });

  it("into a sub-account's margin account: the last hop is its own move", () => {
    const legs = legsOf({ owner: 'main', kind: 'spot' }, { owner: '103', kind: 'margin', pair: 'ETH_USDT' });
    expect(legs.map((l) => writeFor('USDT', l).kind)).toEqual(['main_sub_transfer', 'sub_own_transfer']);
    expect(signerOf(writeFor('USDT', legs[1]!))).toBe('103');
  });

  it("the main key's own moves stay own_transfer, signed by the main key", () => {
    const [leg] = legsOf({ owner: 'main', kind: 'spot' }, { owner: 'main', kind: 'futures' });
    const w = writeFor('USDT', leg!);
    expect(w).toEqual({ kind: 'own_transfer', input: { currency: 'USDT', from: 'spot', to: 'futures', amount: '12.5', settle: 'usdt' } });
    expect(signerOf(w)).toBeNull();
  });

  it("a sub-account's cross-margin account is refused with the reason: §4.1 names no such side", () => {
    const [hop] = legsOf({ owner: '101', kind: 'cross_margin' }, { owner: '101', kind: 'spot' });
    expect(() => writeFor('USDT', hop!)).toThrow(/cross-margin account cannot be rebalanced/);
  });
});
