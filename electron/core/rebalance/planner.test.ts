import { describe, expect, it } from 'vitest';
import { plan } from './planner.ts';
import { equalize, sweepToMain, type InScope } from './targets.ts';

const sub = (owner: string, balance: string, kind: InScope['account']['kind'] = 'spot') => ({ account: { owner, kind }, balance });

describe('rebalance planner: presets and what the plan says', () => {
  it('equalize: 10, 0, 0 becomes 3.33333333 each with the 1e-8 remainder left where it was', () => {
    const p = plan('USDT', equalize([sub('1', '10'), sub('2', '0'), sub('3', '0')]));
    expect(p.accounts.map((a) => a.after)).toEqual(['3.33333334', '3.33333333', '3.33333333']);
    expect(p.remainder).toBe('0.00000001');
    expect(p.moved).toBe('6.66666666');
    expect(p.transfers.map((t) => [t.from.owner, t.to.owner, t.amount, t.legs.map((l) => l.endpoint)])).toEqual([
      ['1', '2', '3.33333333', ['/wallet/sub_account_to_sub_account']],
      ['1', '3', '3.33333333', ['/wallet/sub_account_to_sub_account']],
    ]);
    expect(p.bound).toBe(2);
  });

  it('sweep: everything above the ceiling goes to the main spot account, nothing below it moves', () => {
    const p = plan('USDT', sweepToMain([sub('1', '150'), sub('2', '80'), sub('3', '100.5')], '100', '7'));
    expect(p.transfers.map((t) => [t.from.owner, t.to.owner, t.amount])).toEqual([
      ['1', 'main', '50'],
      ['3', 'main', '0.5'],
    ]);
    expect(p.accounts.at(-1)!.after).toBe('57.5');
    expect(p.transfers[0]!.legs).toEqual([
      {
        endpoint: '/wallet/sub_account_transfers',
        signer: 'main',
        from: { owner: '1', kind: 'spot' },
        to: { owner: 'main', kind: 'spot' },
        amount: '50',
      },
    ]);
  });

  it('a sub-account margin account shows its extra hop through its own spot account, signed by its own key', () => {
    const p = plan('USDT', [
      { account: { owner: '1', kind: 'margin', pair: 'BTC_USDT' }, balance: '5', target: { type: 'amount', amount: '0' } },
      { ...sub('2', '0'), target: { type: 'amount', amount: '5' } },
    ]);
    expect(p.transfers[0]!.legs.map((l) => [l.endpoint, l.signer])).toEqual([
      ['/wallet/transfers', '1'],
      ['/wallet/sub_account_to_sub_account', 'main'],
    ]);
    expect(p.extraHops).toBe(1);
    expect(p.requests).toBe(2);
  });

  it('options cannot go sub to sub: the plan passes through the main spot account', () => {
    const p = plan('USDT', [
      { ...sub('1', '2', 'options'), target: { type: 'amount', amount: '0' } },
      { ...sub('2', '0'), target: { type: 'band', floor: '2' } },
    ]);
    expect(p.transfers[0]!.legs.map((l) => [l.from.owner, l.to.owner])).toEqual([
      ['1', 'main'],
      ['main', '2'],
    ]);
  });

  it('takes the extra from an account already sending before one with more room: one transfer, not two', () => {
    // 1 must send 2 (above its ceiling) and 3 needs 5: the other 3 could come from 2, which has more room,
    // but 1 is sending already and has room for it, so 1 sends all 5 and 2 is left out of the plan.
    const p = plan('USDT', [
      { ...sub('1', '10'), target: { type: 'band', ceiling: '8' } },
      { ...sub('2', '100'), target: { type: 'band' } },
      { ...sub('3', '0'), target: { type: 'band', floor: '5' } },
    ]);
    expect(p.transfers.map((t) => [t.from.owner, t.to.owner, t.amount])).toEqual([['1', '3', '5']]);
    expect(p.accounts.map((a) => a.after)).toEqual(['5', '100', '5']);
  });

  it('gives the extra to an account already receiving before one with more room: one transfer, not two', () => {
    const p = plan('USDT', [
      { ...sub('1', '0'), target: { type: 'band', floor: '2', ceiling: '10' } },
      { ...sub('2', '0'), target: { type: 'band', ceiling: '100' } },
      { ...sub('3', '20'), target: { type: 'band', ceiling: '15' } },
    ]);
    expect(p.transfers.map((t) => [t.from.owner, t.to.owner, t.amount])).toEqual([['3', '1', '5']]);
    expect(p.accounts.map((a) => a.after)).toEqual(['5', '0', '15']);
  });

  it('unreachable targets are named with how much they miss by, and nothing is planned', () => {
    const p = plan('USDT', [
      { ...sub('1', '10'), target: { type: 'band', floor: '4' } },
      { ...sub('2', '0'), target: { type: 'amount', amount: '5' } },
      { ...sub('3', '1'), target: { type: 'band', floor: '3' } },
    ]);
    expect(p.transfers).toEqual([]);
    expect(p.unreachable).toEqual([{ account: { owner: '3', kind: 'spot' }, problem: 'short', by: '1' }]);
  });

  it('expected time follows §8.2: 400 transfers on one endpoint take (⌈400/80⌉ − 1) × 10 s', () => {
    const scope = [sub('0', '400'), ...Array.from({ length: 400 }, (_, i) => sub(String(i + 1), '0'))];
    const p = plan(
      'USDT',
      scope.map((s, i) => ({ ...s, target: { type: 'amount', amount: i === 0 ? '0' : '1' } })),
    );
    expect(p.transfers).toHaveLength(400);
    expect(p.expectedSeconds).toBe(40);
  });

  it.each([
    ['a balance below zero', [{ ...sub('1', '-1'), target: { type: 'band' } }], /1:spot balance must be a plain decimal/],
    ['nine decimals', [{ ...sub('1', '0.000000001'), target: { type: 'band' } }], /at most 8 decimal places/],
    [
      'shares above the whole',
      [
        { ...sub('1', '1'), target: { type: 'share', share: '0.6' } },
        { ...sub('2', '1'), target: { type: 'share', share: '1/2' } },
      ],
      /more than the whole/,
    ],
    [
      'one account twice',
      [
        { ...sub('1', '1'), target: { type: 'band' } },
        { ...sub('1', '2'), target: { type: 'band' } },
      ],
      /1:spot is in scope twice/,
    ],
    ['a ceiling below the floor', [{ ...sub('1', '1'), target: { type: 'band', floor: '2', ceiling: '1' } }], /ceiling is below the floor/],
    ['a share of 3/2', [{ ...sub('1', '1'), target: { type: 'share', share: '3/2' } }], /a share must be/],
  ] as [string, InScope[], RegExp][])('refuses %s with a clear error', (_what, scope, error) => {
    expect(() => plan('USDT', scope)).toThrow(error);
  });
});
