import { describe, expect, it } from 'vitest';
import { DEFAULT_POLICY } from '../../../../shared/api/policy.ts';
import { ruleSentence } from './ruleSentence.ts';

describe('ruleSentence', () => {
  it('says a block with its kind, currency, amount and destination', () => {
    expect(
      ruleSentence({
        id: 'big-unknown',
        match: { kinds: ['withdrawal'], currencies: ['USDT'], amount_at_least: '10000', destinations: ['unknown'] },
        action: 'block',
      }),
    ).toBe('Withdrawals of USDT of at least 10,000 to an unknown destination are blocked.');
  });

  it('says who may approve a rule that requires approvals', () => {
    const rule = { id: 'two', match: {}, action: 'require', approvals: 2 } as const;
    expect(ruleSentence(rule)).toBe('Every other write needs 2 approvals, not by the drafter.');
    expect(ruleSentence(rule, { first: true })).toBe('Every write needs 2 approvals, not by the drafter.');
    expect(ruleSentence({ ...rule, drafter_may_approve: true })).toBe(
      'Every other write needs 2 approvals, one of which the drafter may give.',
    );
    expect(ruleSentence({ ...rule, approvals: 1, drafter_may_approve: true })).toBe(
      'Every other write needs 1 approval, which the drafter may give.',
    );
  });

  it('reads the default policy', () => {
    expect(DEFAULT_POLICY.rules.map((r, i) => ruleSentence(r, { first: i === 0 }))).toEqual([
      'Order cancellations or cancellations of all orders of a pair are allowed without approval.',
      'Withdrawals or UID transfers to an unknown destination are blocked.',
      'Every other write needs 1 approval, which the drafter may give.',
    ]);
  });

  it('says a USDT value, several currencies and destinations, and the 24-hour outflow', () => {
    expect(
      ruleSentence({
        id: 'v',
        match: {
          kinds: ['withdrawal', 'uid_transfer', 'spot_order'],
          currencies: ['BTC', 'ETH'],
          usdt_at_least: '250000.5',
          destinations: ['verified_saved', 'address_book'],
          velocity_24h_at_least: '1000000',
        },
        action: 'require',
        approvals: 3,
      }),
    ).toBe(
      'Withdrawals, UID transfers or spot orders of BTC or ETH worth at least 250,000.5 USDT to a verified saved address at the ' +
        "exchange or an address in the desk's address book when they bring their currency's 24-hour outflow to at least 1,000,000 " +
        'need 3 approvals, not by the drafter.',
    );
  });

  it('says writes of any kind, in their own currency, when no kind or currency is named', () => {
    expect(ruleSentence({ id: 'a', match: { amount_at_least: '5' }, action: 'allow' })).toBe(
      'Writes of at least 5 in their own currency are allowed without approval.',
    );
    expect(ruleSentence({ id: 'a', match: {}, action: 'allow' }, { first: true })).toBe('Every write is allowed without approval.');
  });
});
