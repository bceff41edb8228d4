import { describe, expect, it } from 'vitest';
import { buildStatement, type BookLine, type DeskRecord, type StatementInput } from './reconcile.ts';

// The two witnesses disagreeing, one way at a time: what is counted, what is named, and the figures.

const T0 = Date.UTC(2026, 10, 1);
const DAY = 86_400_000;

const line = (id: string, at: number, type: string, change: string, balance: string, text: string, code = ''): BookLine => ({
  id,
  at,
  type,
  change,
  balance,
  text,
  code,
});
const withdrawal = (id: string, at: number, amount: string): DeskRecord => ({
  kind: 'withdrawal',
  at,
  amount,
  fee: '1',
  exchange_id: id,
  desk_id: `desk-${id}`,
  approved_by: 'alice',
  bookText: id,
});

function statement(book: BookLine[], desk: DeskRecord[], totalNow: string): ReturnType<typeof buildStatement> {
  const input: StatementInput = {
    account: 'main',
    accountLabel: 'Main account',
    currency: 'USDT',
    from: T0,
    to: T0 + 30 * DAY,
    timeZone: 'UTC',
    // The exchange lists the newest first.
    book: [...book].reverse(),
    totalNow,
    desk,
    scope: [],
    requests: 1,
  };
  return buildStatement(input);
}

describe('a statement from the book and the desk', () => {
  it('counts the refund of a withdrawal sent before the period, named by its record', () => {
    const s = statement([line('1', T0 + DAY, 'withdraw_reject', '50', '150', 'w9')], [withdrawal('w9', T0 - DAY, '0')], '150');
    expect(s).toMatchObject({ opening: '100', closing: '150', difference: '0', unexplained: [] });
    expect(s.movements).toEqual([expect.objectContaining({ source: 'both', counted: true, desk_id: 'desk-w9', approved_by: 'alice' })]);
  });

  it('names a book entry no record explains, and leaves it out of the count', () => {
    const s = statement(
      [line('1', T0 + DAY, 'withdraw', '-40', '60', 'w1'), line('2', T0 + 2 * DAY, 'deposit', '10', '70', 'd1')],
      [withdrawal('w1', T0 + DAY, '-40')],
      '70',
    );
    expect(s).toMatchObject({ opening: '100', closing: '70', computed_closing: '60', difference: '10' });
    expect(s.unexplained).toEqual([
      {
        count: 1,
        amount: '10',
        sentence:
          "1 movement of +10 USDT not explained: the exchange's account book holds deposit d1 (2026-11-03 00:00:00 UTC), which the desk's records do not",
      },
    ]);
  });

  it('counts a record the book does not hold, and says so', () => {
    const s = statement([], [withdrawal('w2', T0 + DAY, '-25')], '100');
    expect(s).toMatchObject({ opening: '100', closing: '100', computed_closing: '75', difference: '25' });
    expect(s.movements).toEqual([expect.objectContaining({ source: 'desk', amount: '-25', balance_after: '75' })]);
    expect(s.unexplained.map((u) => u.sentence)).toEqual([
      "1 movement of -25 USDT in the desk's records is not in the exchange's account book: withdrawal w2 (2026-11-02 00:00:00 UTC)",
    ]);
  });

  it('names a record whose amount the book contradicts, counting the book', () => {
    const s = statement([line('1', T0 + DAY, 'withdraw', '-1000', '0', 'w3')], [withdrawal('w3', T0 + DAY, '-100')], '0');
    expect(s).toMatchObject({ opening: '1000', closing: '0', difference: '0' });
    expect(s.unexplained).toEqual([
      {
        count: 1,
        amount: '-900',
        sentence:
          "1 movement of USDT where the desk's records and the exchange's account book disagree on the amount: withdrawal w3 (the desk -100, the book -1000); the book's amount is counted",
      },
    ]);
  });

  it('takes a refund the book holds of a withdrawal the desk last saw under way, and not of one it saw done', () => {
    const book = [line('1', T0 + DAY, 'withdraw', '-40', '60', 'w7'), line('2', T0 + 2 * DAY, 'withdraw_cancel', '40', '100', 'w7')];
    // Read by the desk while its cancel was pending; the book, read after, already holds the refund.
    const underWay = statement(book, [{ ...withdrawal('w7', T0 + DAY, '-40'), mayBe: ['0'] }], '100');
    expect(underWay).toMatchObject({ opening: '100', closing: '100', difference: '0', unexplained: [] });
    // Final as DONE when the desk read it: a refund in the book contradicts it, and is named.
    const done = statement(book, [withdrawal('w7', T0 + DAY, '-40')], '100');
    expect(done.unexplained.map((u) => u.sentence)).toEqual([expect.stringContaining('disagree on the amount: withdrawal w7')]);
  });

  it('takes the credit of a deposit the desk last saw pending', () => {
    const book = [line('1', T0 + DAY, 'deposit', '5', '105', 'd3')];
    const pending = { ...withdrawal('d3', T0 + DAY, '0'), kind: 'deposit' as const, mayBe: ['5'] };
    expect(statement(book, [pending], '105')).toMatchObject({ difference: '0', unexplained: [] });
  });

  it("closes on the last entry's balance, not on a total read before an entry the book holds", () => {
    // The total was read (100) just before a deposit of 5 the book then held.
    const s = statement(
      [line('1', T0 + DAY, 'deposit', '5', '105', 'd1')],
      [{ ...withdrawal('d1', T0 + DAY, '5'), kind: 'deposit' }],
      '100',
    );
    expect(s).toMatchObject({ opening: '100', closing: '105', difference: '0', unexplained: [] });
  });
});
