import { describe, expect, it } from 'vitest';
import { compactAmount, groupDigits } from './digits.ts';

describe('figures for display', () => {
  it('groups the integer digits and keeps the fraction exact', () => {
    expect(groupDigits('1234567.891234')).toBe('1,234,567.891234');
    expect(groupDigits('-1000')).toBe('-1,000');
  });

  it('writes an axis tick in compact units, rounded half up to two decimals of its unit', () => {
    expect(compactAmount('3992605')).toBe('3.99M');
    expect(compactAmount('3995000')).toBe('4M');
    expect(compactAmount('1250')).toBe('1.25K');
    expect(compactAmount('999995')).toBe('1M');
    expect(compactAmount('-2500000000.5')).toBe('-2.5B');
    expect(compactAmount('12345678901234567')).toBe('12,345.68T');
    expect(compactAmount('999.5')).toBe('999.5');
    expect(compactAmount('0')).toBe('0');
  });

  it('names what is not a decimal number', () => {
    expect(() => compactAmount('1e21')).toThrow('compactAmount: "1e21" is not a decimal number');
  });
});
