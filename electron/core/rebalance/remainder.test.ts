import { describe, expect, it } from 'vitest';
import { plan } from './planner.ts';
import type { InScope } from './targets.ts';

// "Takes the remainder" (docs/rebalance.md): the operator names one account that ends with whatever the
// other targets leave, so a plan needs no hand arithmetic. Without it, the main account in scope kept
// its balance as its target and "these targets cannot all be met".

const at = (owner: string, balance: string, target: InScope['target']): InScope => ({ account: { owner, kind: 'spot' }, balance, target });

describe('rebalance planner: an account that takes the remainder', () => {
  it('the main account in scope with no figure of its own gives the subs their amounts and keeps the rest', () => {
    const p = plan('USDT', [
      at('main', '675886.797047', { type: 'remainder' }),
      at('1', '0', { type: 'amount', amount: '60' }),
      at('2', '40', { type: 'amount', amount: '80' }),
    ]);
    expect(p.unreachable).toEqual([]);
    expect(p.transfers.map((t) => [t.from.owner, t.to.owner, t.amount])).toEqual([
      ['main', '1', '60'],
      ['main', '2', '40'],
    ]);
    expect(p.accounts.map((a) => [a.account.owner, a.target.type, a.after])).toEqual([
      ['main', 'remainder', '675786.797047'],
      ['1', 'amount', '60'],
      ['2', 'amount', '80'],
    ]);
  });

  it('any one account may take it: a surplus above a ceiling goes to it, not to another account with room', () => {
    const p = plan('USDT', [
      at('main', '10', { type: 'band', floor: '5' }),
      at('1', '500', { type: 'band', ceiling: '100' }),
      at('2', '3', { type: 'remainder' }),
    ]);
    expect(p.transfers.map((t) => [t.from.owner, t.to.owner, t.amount])).toEqual([['1', '2', '400']]);
    expect(p.accounts.map((a) => a.after)).toEqual(['10', '100', '403']);
  });

  it('it gives first when the others need more than is spare, and is short only when the floors exceed the whole', () => {
    const p = plan('USDT', [
      at('1', '50', { type: 'remainder' }),
      at('2', '50', { type: 'band', floor: '20' }),
      at('3', '0', { type: 'amount', amount: '30' }),
    ]);
    expect(p.transfers.map((t) => [t.from.owner, t.to.owner, t.amount])).toEqual([['1', '3', '30']]);
    const short = plan('USDT', [at('1', '50', { type: 'remainder' }), at('2', '0', { type: 'amount', amount: '80' })]);
    expect(short.unreachable).toEqual([{ account: { owner: '2', kind: 'spot' }, problem: 'short', by: '30' }]);
  });

  it('refuses two accounts that take the remainder, saying so', () => {
    expect(() => plan('USDT', [at('1', '1', { type: 'remainder' }), at('2', '1', { type: 'remainder' })])).toThrow(
      '2 accounts are set to take the remainder: only one can, so choose which and give the others a target',
    );
  });
});
