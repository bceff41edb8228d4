import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { Dec } from '../../shared/money.ts';
import { sumAmounts } from './withdrawals.ts';

// The daily-limit sum adds amounts in integers for speed: it must equal decimal.js's sum exactly.
const plain = fc
  .tuple(fc.bigInt({ min: 0n, max: 10n ** 15n - 1n }), fc.option(fc.stringMatching(/^\d{1,8}$/), { nil: undefined }))
  .map(([w, f]) => (f === undefined ? String(w) : `${w}.${f}`));
const odd = fc.constantFrom('1e-8', '0.000000001', '12345678901234567.5', '.5', '7.00000000000000000001');

describe('sumAmounts', () => {
  it('equals the decimal.js sum for plain and unusual amounts', () => {
    fc.assert(
      fc.property(fc.array(fc.oneof({ weight: 9, arbitrary: plain }, { weight: 1, arbitrary: odd }), { maxLength: 300 }), (amounts) => {
        const expected = amounts.reduce((s, a) => s.plus(a), new Dec(0));
        expect(sumAmounts(amounts).toFixed()).toBe(expected.toFixed());
      }),
      { numRuns: 300 },
    );
  });

  it('falls back to decimal.js when whole units pass 2^53', () => {
    const big = Array.from({ length: 20 }, () => '999999999999999.99999999');
    expect(sumAmounts(big).toFixed()).toBe(new Dec('999999999999999.99999999').times(20).toFixed());
  });
});
