import { describe, expect, it } from 'vitest';
import { OwnTransferInput, SubOwnTransferInput } from './writes.ts';

// The two own-account moves share their fields; each still refuses a move to the same account and
// anything not in §4.1's body, and the sub-account's keeps whose key signs.
describe('own-account transfer inputs', () => {
  const move = { currency: 'USDT', from: 'spot', to: 'futures', amount: '2.5', settle: 'usdt' };

  it("takes §4.1's body, and the signing sub-account for a sub-account's own move", () => {
    expect(OwnTransferInput.parse(move)).toEqual(move);
    expect(SubOwnTransferInput.parse({ sub_account: '10000101', ...move })).toEqual({ sub_account: '10000101', ...move });
  });

  it('refuses a move from an account to itself, naming the problem', () => {
    for (const r of [
      OwnTransferInput.safeParse({ ...move, to: 'spot' }),
      SubOwnTransferInput.safeParse({ sub_account: '10000101', ...move, to: 'spot' }),
    ]) {
      expect(r.success).toBe(false);
      expect(r.error?.issues.map((i) => i.message)).toEqual(['from and to must be different accounts']);
    }
  });

  it("refuses a field the body does not have, and a sub-account's move without its sub-account", () => {
    expect(OwnTransferInput.safeParse({ ...move, sub_account: '10000101' }).success).toBe(false);
    expect(SubOwnTransferInput.safeParse(move).success).toBe(false);
  });
});
