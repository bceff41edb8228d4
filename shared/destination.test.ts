import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { AddressBookAddRequest } from './addressBook.ts';
import { WithdrawalInput } from './api/writes.ts';
import { destinationProblems } from './destination.ts';

// Look-alike destinations: what reads as the address the operator meant but is another one. The three
// of the report (a Cyrillic letter, a zero-width space, a right-to-left mark) and their kin are refused
// by the contract's own schemas, with a sentence that says which character and where.

const REAL = 'TXkz7nF8cq3PWy7FHLgLFGfBpzyBK5ZNvA';
const LOOKALIKES: [string, string, RegExp][] = [
  ['a Cyrillic "с" for a Latin "c"', REAL.replace('c', '\u0441'), /non-ASCII character "с" \(U\+0441\).*at character 9/],
  ['a zero-width space', `${REAL.slice(0, 5)}\u200b${REAL.slice(5)}`, /invisible zero-width space \(U\+200B\) at character 6/],
  ['a right-to-left mark', `\u200f${REAL}`, /right-to-left mark .*\(U\+200F\) at character 1/],
  ['a right-to-left override', `${REAL.slice(0, 10)}\u202e${REAL.slice(10)}`, /right-to-left override/],
  ['a Greek omicron for an "o"', `0x${'1'.repeat(20)}\u03bf${'2'.repeat(19)}`, /non-ASCII character "ο" \(U\+03BF\)/],
  ['a no-break space', `${REAL.slice(0, 3)}\u00a0${REAL.slice(3)}`, /no-break space/],
  ['a full-width digit', `T\uff11${REAL.slice(2)}`, /non-ASCII character/],
];

describe('a destination is checked against its chain’s characters', () => {
  it.each(LOOKALIKES)('refuses an address with %s, naming the character and where it is', (_what, address, why) => {
    const problems = destinationProblems({ chain: 'TRX', address });
    expect(problems).toHaveLength(1);
    expect(problems[0]!.field).toBe('address');
    expect(problems[0]!.message).toMatch(why);
    expect(problems[0]!.message).toMatch(/^The address has .*TRX addresses are plain ASCII/);
  });

  it.each(LOOKALIKES)('the withdrawal and address-book schemas refuse one with %s on the address field', (_what, address) => {
    const w = WithdrawalInput.safeParse({ currency: 'USDT', chain: 'TRX', address, amount: '10' });
    expect(w.success).toBe(false);
    expect(w.error!.issues.map((i) => i.path.join('.'))).toEqual(['address']);
    const b = AddressBookAddRequest.safeParse({ currency: 'USDT', chain: 'TRX', address });
    expect(b.success).toBe(false);
    expect(b.error!.issues.map((i) => i.path.join('.'))).toEqual(['address']);
  });

  it('refuses hidden characters in a memo, and takes a memo of words', () => {
    const hidden = destinationProblems({ chain: 'XRP', address: 'rPEPPER7kfTD9w2To4CQk6UCfuHM9c6GDY', memo: '1234\u200d56' });
    expect(hidden).toEqual([{ field: 'memo', message: expect.stringMatching(/^The memo has an invisible zero-width joiner/) }]);
    expect(destinationProblems({ chain: 'XLM', address: 'GABC', memo: 'invoice 42' })).toEqual([]);
  });

  it('accepts every address made of printable ASCII, as the exchange writes them', () => {
    const ascii = fc.string({ unit: fc.integer({ min: 0x21, max: 0x7e }).map((c) => String.fromCharCode(c)), minLength: 1, maxLength: 80 });
    fc.assert(fc.property(ascii, (address) => destinationProblems({ chain: 'ETH', address }).length === 0));
    expect(WithdrawalInput.safeParse({ currency: 'USDT', chain: 'TRX', address: REAL, amount: '10' }).success).toBe(true);
  });

  it('refuses every address with any character outside printable ASCII, wherever it sits', () => {
    const outside = fc.oneof(
      fc.integer({ min: 0, max: 0x20 }),
      fc.integer({ min: 0x7f, max: 0xd7ff }),
      fc.integer({ min: 0xe000, max: 0x10ffff }),
    );
    fc.assert(
      fc.property(fc.string({ maxLength: 20 }), outside, fc.string({ maxLength: 20 }), (before, cp, after) => {
        const address = `${before}${String.fromCodePoint(cp)}${after}`;
        return destinationProblems({ chain: 'TRX', address }).some((p) => p.field === 'address');
      }),
    );
    expect(destinationProblems({ chain: 'TRX', address: `${REAL}\u2069` })).toHaveLength(1);
  });
});
