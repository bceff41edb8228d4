import { describe, expect, it } from 'vitest';
import { checkAmount, type Limits } from './withdrawCheck.ts';

const L: Limits = { chainDecimals: 6, min: '10', eachMax: '1000', dayRemaining: '500', feeFix: '1', feePercent: '0.1%' };

describe("the withdraw form's amount", () => {
  it('shows the fee, fixed plus percent, and what arrives', () => {
    expect(checkAmount('100', L)).toEqual({ ok: true, fee: '1.1', arrives: '98.9' });
  });
  it.each([
    ['0', /above 0/],
    ['12.1234567', /6 decimal places.*chain's precision/],
    ['9.99', /minimum withdrawal is 10/],
    ['600', /Only 500 remains/],
    ['abc', /plain decimal/],
  ])('refuses %s with the reason', (amount, why) => {
    const r = checkAmount(amount, L);
    expect(r.ok).toBe(false);
    expect(!r.ok && r.problem).toMatch(why);
  });
  it('applies the per-withdrawal maximum', () => {
    expect(checkAmount('1500', { ...L, dayRemaining: '5000' })).toEqual({ ok: false, problem: 'The maximum per withdrawal is 1000.' });
  });
});
