import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { isClientOrderId, isWithdrawOrderId, makeOrderId } from './ids.ts';

describe('order ids', () => {
  it('are valid both as a withdraw_order_id (§8.5: <= 32 of 0-9 A-Z a-z _ - .) and as a client_order_id (1-64 of letters, digits, - _)', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 8_000_000_000_000 }), fc.uint8Array({ minLength: 16, maxLength: 32 }), (now, bytes) => {
        const id = makeOrderId(now, bytes);
        expect(id.length).toBeLessThanOrEqual(32);
        expect(isWithdrawOrderId(id)).toBe(true);
        expect(isClientOrderId(id)).toBe(true);
      }),
      { numRuns: 500 },
    );
  });

  it('differ when the random part differs', () => {
    const a = makeOrderId(1_700_000_000_000, new Uint8Array(16).fill(1));
    const b = makeOrderId(1_700_000_000_000, new Uint8Array(16).fill(2));
    expect(a).not.toBe(b);
  });

  it('checks the formats as the spec gives them', () => {
    expect(isWithdrawOrderId('a'.repeat(32))).toBe(true);
    expect(isWithdrawOrderId('a'.repeat(33))).toBe(false);
    expect(isWithdrawOrderId('desk-A.1_x')).toBe(true);
    expect(isWithdrawOrderId('has space')).toBe(false);
    expect(isWithdrawOrderId('')).toBe(false);
    expect(isClientOrderId('x'.repeat(64))).toBe(true);
    expect(isClientOrderId('x'.repeat(65))).toBe(false);
    expect(isClientOrderId('with.dot')).toBe(false);
    expect(() => makeOrderId(0, new Uint8Array(8))).toThrow(/16 random bytes/);
  });
});
