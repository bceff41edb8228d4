import type { WriteInput } from '../writes/inputs.ts';
import type { PlannedLeg } from './planner.ts';

// A planned request as the write executor's input (shared/api/writes.ts). The executor signs with the
// main key; a move between a sub-account's own accounts needs that sub-account's key (client/subKeys.ts)
// and an executor that signs with it, which the batch does not have yet: such a leg is refused here,
// before anything of the batch is journaled.

export function writeFor(currency: string, leg: PlannedLeg): WriteInput {
  const { from, to, amount } = leg;
  if (leg.signer !== 'main') {
    throw new Error(`moving between sub-account ${leg.signer}'s own accounts (${from.kind} to ${to.kind}) needs that sub-account's key in the batch, which is not supported yet: leave its ${from.kind === 'spot' ? to.kind : from.kind} account out of the rebalance`);
  }
  switch (leg.endpoint) {
    case '/wallet/sub_account_to_sub_account':
      return { kind: 'sub_to_sub_transfer', input: { currency, sub_account_from: from.owner, sub_account_from_type: from.kind as 'spot', sub_account_to: to.owner, sub_account_to_type: to.kind as 'spot', amount } };
    case '/wallet/sub_account_transfers': {
      const toSub = from.owner === 'main';
      const sub = toSub ? to : from;
      return { kind: 'main_sub_transfer', input: { sub_account: sub.owner, sub_account_type: sub.kind as 'spot', currency, amount, direction: toSub ? 'to' : 'from' } };
    }
    case '/wallet/transfers': {
      if (from.kind === 'cross_margin' || to.kind === 'cross_margin') throw new Error('the main account\'s cross-margin account cannot be rebalanced: §4.1 /wallet/transfers names no cross-margin side');
      const pair = from.pair ?? to.pair;
      const contract = [from.kind, to.kind].some((k) => k === 'futures' || k === 'delivery');
      return {
        kind: 'own_transfer',
        input: { currency, from: from.kind, to: to.kind, amount, ...(pair ? { currency_pair: pair } : {}), ...(contract ? { settle: currency.toLowerCase() } : {}) },
      };
    }
  }
}
