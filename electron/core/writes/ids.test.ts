import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { isClientOrderId, isDeskOrderId, isWithdrawOrderId } from '../../../shared/api/ids.ts';
import { isOwnOrderId, isOwnOrderText, newOrderId } from './ids.ts';
import { orderText } from './inputs.ts';

// Reconciliation takes a record for the desk's own only when its id carries the desk's tag: two desks on
// one API key must not mistake each other's writes for a journal that lost entries.

describe("the desk's ids", () => {
  const mine = randomBytes(32);
  const theirs = randomBytes(32);

  it('tags every id and order text with the key, valid in both §8.5 formats', () => {
    for (let i = 0; i < 200; i++) {
      const id = newOrderId(Date.now(), mine);
      expect(isWithdrawOrderId(id) && isClientOrderId(id) && isDeskOrderId(id)).toBe(true);
      expect(isOwnOrderId(mine, id)).toBe(true);
      expect(isOwnOrderText(mine, orderText(id, undefined))).toBe(true);
      expect(isOwnOrderText(mine, orderText(id, 'rebal'))).toBe(true);
    }
  });

  it("does not take another desk's ids, untagged ids or foreign texts for its own", () => {
    const foreign = Array.from({ length: 200 }, () => newOrderId(Date.now(), theirs));
    expect(foreign.filter((id) => isOwnOrderId(mine, id))).toEqual([]);
    expect(foreign.filter((id) => isOwnOrderText(mine, orderText(id, 'rebal')))).toEqual([]);
    const untagged = Array.from({ length: 200 }, () => newOrderId(Date.now()));
    expect(untagged.filter((id) => isOwnOrderId(mine, id))).toEqual([]);
    for (const other of ['desk-10001-3', 'seed-10001-2', '', 'td-abc', 't-manual']) {
      expect(isOwnOrderId(mine, other)).toBe(false);
      expect(isOwnOrderText(mine, other)).toBe(false);
    }
  });

  it('keeps the tag bound to the random part: changing one character breaks it', () => {
    const id = newOrderId(Date.now(), mine);
    const flip = (s: string, at: number) => s.slice(0, at) + (s[at] === 'A' ? 'B' : 'A') + s.slice(at + 1);
    expect(isOwnOrderId(mine, flip(id, id.length - 12))).toBe(false);
    expect(isOwnOrderId(mine, flip(id, id.length - 1))).toBe(false);
  });
});
