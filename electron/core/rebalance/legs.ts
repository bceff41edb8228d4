import type { WriteInput } from '../writes/inputs.ts';
import type { PlannedLeg } from './planner.ts';

// A planned request as the write executor's input (shared/api/writes.ts). A move between a sub-account's
// own accounts is a sub_own_transfer: the executor signs it with that sub-account's key (the intent names
// the sub-account; the wire body stays §4.1's own-account body).

/** §4.1 POST /wallet/transfers: margin names its pair, futures and delivery their settlement currency. */
function ownSides(currency: string, from: PlannedLeg['from'], to: PlannedLeg['to']): { pair?: string; settle?: string } {
  const pair = from.pair ?? to.pair;
  const contract = [from.kind, to.kind].some((k) => k === 'futures' || k === 'delivery');
  return { ...(pair ? { pair } : {}), ...(contract ? { settle: currency.toLowerCase() } : {}) };
}

export function writeFor(currency: string, leg: PlannedLeg): WriteInput {
  const { from, to, amount } = leg;
  if (leg.signer !== 'main') {
    if (leg.endpoint !== '/wallet/transfers' || from.owner !== leg.signer || to.owner !== leg.signer) {
      throw new Error(
        `sub-account ${leg.signer}'s key signs only moves between its own accounts, not ${leg.endpoint} from ${from.owner} to ${to.owner}`,
      );
    }
    if (from.kind === 'cross_margin' || to.kind === 'cross_margin') {
      throw new Error(
        `sub-account ${leg.signer}'s cross-margin account cannot be rebalanced: the exchange offers no transfer into or out of a cross-margin account. Leave it out of the rebalance`,
      );
    }
    const { pair, settle } = ownSides(currency, from, to);
    return {
      kind: 'sub_own_transfer',
      input: {
        sub_account: leg.signer,
        currency,
        from: from.kind,
        to: to.kind,
        amount,
        ...(pair ? { currency_pair: pair } : {}),
        ...(settle ? { settle } : {}),
      },
    };
  }
  switch (leg.endpoint) {
    case '/wallet/sub_account_transfers': {
      const toSub = from.owner === 'main';
      const sub = toSub ? to : from;
      return {
        kind: 'main_sub_transfer',
        input: { sub_account: sub.owner, sub_account_type: sub.kind as 'spot', currency, amount, direction: toSub ? 'to' : 'from' },
      };
    }
    case '/wallet/transfers': {
      if (from.kind === 'cross_margin' || to.kind === 'cross_margin')
        throw new Error(
          "the main account's cross-margin account cannot be rebalanced: the exchange offers no transfer into or out of a cross-margin account",
        );
      const { pair, settle } = ownSides(currency, from, to);
      return {
        kind: 'own_transfer',
        input: { currency, from: from.kind, to: to.kind, amount, ...(pair ? { currency_pair: pair } : {}), ...(settle ? { settle } : {}) },
      };
    }
  }
}
