import fc from 'fast-check';
import { expect, test } from 'vitest';
import { Dec, fmt } from '../../shared/money.ts';
import { addDecimalText } from './decimalAdd.ts';
import { bigOf, bigText } from './scaled.ts';

// The balances an order changes are summed by ledger_add (funds.ts) without decimal.js; every sum must be
// the string the ledger wrote before: fmt of a decimal.js sum, 40 significant digits rounded down.

const digits = (min: number, max: number) => fc.string({ unit: fc.constantFrom(...'0123456789'), minLength: min, maxLength: max });
const plain = fc
  .tuple(fc.boolean(), digits(1, 24), fc.option(digits(1, 24), { nil: undefined }))
  .map(([neg, int, frac]) => `${neg ? '-' : ''}${int.replace(/^0+(?=\d)/, '')}${frac === undefined ? '' : `.${frac}`}`);

test('a sum of two decimal strings is the ledger’s decimal.js sum, digit for digit', () => {
  fc.assert(
    fc.property(plain, plain, (a, b) => {
      expect(addDecimalText(a, b)).toBe(fmt(new Dec(a).plus(b)));
    }),
    { numRuns: 5000 },
  );
});

test.each([
  ['0.1', '0.2', '0.3'],
  ['1.50', '-1.5', '0'],
  ['100', '-0.000001', '99.999999'],
  ['0', '0', '0'],
  // Past 40 significant digits decimal.js rounds down, and so does the sum.
  ['1234567890123456789012345678901234567890', '0.5', '1234567890123456789012345678901234567890'],
  ['9999999999999999999999999999999999999999', '1', '10000000000000000000000000000000000000000'],
  // Not a plain decimal (never written by the Sandbox, but a row edited by hand could hold one).
  ['1e3', '1', '1001'],
])('%s + %s = %s', (a, b, sum) => {
  expect(addDecimalText(a, b)).toBe(sum);
  expect(addDecimalText(a, b)).toBe(fmt(new Dec(a).plus(b)));
});

test('amounts held as integers at a pair’s places read and write the ledger’s strings', () => {
  fc.assert(
    fc.property(fc.bigInt({ min: -(10n ** 30n), max: 10n ** 30n }), fc.integer({ min: 0, max: 18 }), (n, places) => {
      const text = bigText(n, places);
      expect(text).toBe(fmt(new Dec(n.toString()).div(new Dec(10).pow(places))));
      expect(bigOf(text, places)).toBe(n);
    }),
    { numRuns: 3000 },
  );
  expect(bigOf('1.2345', 3)).toBeNull();
  expect(bigOf('1.2340', 3)).toBe(1234n);
});
