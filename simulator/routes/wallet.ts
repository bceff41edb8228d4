import type { RouteDef } from '../server.ts';
import { ApiError } from '../errors.ts';
import { TOTAL_BALANCE_CURRENCIES, totalBalance } from '../valuation.ts';

export const walletRoutes: RouteDef[] = [
  {
    // §4.1, §2.9
    method: 'GET',
    path: '/wallet/total_balance',
    group: 'wallet',
    handler: ({ db, caller, query }) => {
      const currency = (query.get('currency') ?? 'USDT').toUpperCase();
      if (!(TOTAL_BALANCE_CURRENCIES as readonly string[]).includes(currency)) {
        throw new ApiError('INVALID_PARAM_VALUE', `currency must be one of ${TOTAL_BALANCE_CURRENCIES.join(', ')}`);
      }
      return totalBalance(db, caller.uid, currency);
    },
  },
];
