import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { amountProblem, dec, fmt, groupDigits, isDecimalString } from './money.ts';

describe('money', () => {
  it('accepts plain decimal strings only', () => {
    for (const ok of ['0', '1', '-2.5', '123456789012345678901234567890.123456789']) expect(isDecimalString(ok)).toBe(true);
    for (const bad of ['', '1e5', '01', '1.', '.5', ' 1', '1,000', 'NaN', 'Infinity', '0x10']) expect(isDecimalString(bad)).toBe(false);
  });

  it('checks §8.5 amounts: above 0, at most 8 decimals', () => {
    expect(amountProblem('0.00000001')).toBeNull();
    expect(amountProblem('0.000000001')).toMatch(/8 decimal/);
    expect(amountProblem('0')).toMatch(/above 0/);
    expect(amountProblem('-1')).toMatch(/plain decimal/);
    expect(amountProblem('1e3')).toMatch(/plain decimal/);
  });

  it('bounds the digits of an amount: at most 20 before the point and 8 after', () => {
    expect(amountProblem(`${'9'.repeat(20)}.${'9'.repeat(8)}`)).toBeNull();
    expect(amountProblem('1'.repeat(21))).toMatch(/more than 20 digits before the decimal point/);
    expect(amountProblem(`1.${'0'.repeat(900_000)}`)).toMatch(/more than 8 decimal places/);
    expect(amountProblem('9'.repeat(900_000))).toMatch(/more than 20 digits before the decimal point/);
  });

  it('keeps amounts exact where a float would not', () => {
    expect(fmt(dec('0.1').plus(dec('0.2')))).toBe('0.3');
    expect(fmt(dec('12345678901234567.12345678').plus('0.00000001'))).toBe('12345678901234567.12345679');
  });

  it('groups digits without changing them', () => {
    expect(groupDigits('1234567.891')).toBe('1,234,567.891');
    expect(groupDigits('-1000')).toBe('-1,000');
    fc.assert(
      fc.property(fc.bigInt({ min: -(10n ** 30n), max: 10n ** 30n }), fc.nat({ max: 99999999 }), (i, f) => {
        const s = `${i}.${String(f).padStart(8, '0')}`;
        expect(groupDigits(s).replaceAll(',', '')).toBe(s);
      }),
    );
  });
});
