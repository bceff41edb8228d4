import { ApiError } from '../errors.ts';
import { mainSubTransfer, ownTransfer, subToSubTransfer, transferStatus } from '../ledger/transfers.ts';
import type { RouteDef } from '../server.ts';
import { bodyAmount, bodyObject, bodyString, currencyName, mainOnly, optional } from './params.ts';

// §4.1 transfers between accounts of one main account, and their status.

export function transferRoutes(): RouteDef[] {
  return [
    {
      // §4.1 POST /wallet/transfers: between the caller's own accounts.
      method: 'POST',
      path: '/wallet/transfers',
      group: 'wallet',
      handler: ({ db, caller, body, nowSec }) => {
        const b = bodyObject(body, 'currency');
        const currency = currencyName(bodyString(b, 'currency', true));
        const from = bodyString(b, 'from', true);
        const to = bodyString(b, 'to', true);
        const amount = bodyAmount(b);
        return ownTransfer(
          db,
          caller.uid,
          caller.mainUid,
          {
            currency,
            from,
            to,
            amount,
            currency_pair: bodyString(b, 'currency_pair', false),
            settle: bodyString(b, 'settle', false),
          },
          nowSec,
        );
      },
    },
    {
      // §4.1, §5.5: main account keys only.
      method: 'POST',
      path: '/wallet/sub_account_transfers',
      group: 'wallet',
      handler: ({ db, caller, body, nowSec }) => {
        mainOnly(caller, 'POST /wallet/sub_account_transfers');
        const b = bodyObject(body, 'sub_account');
        const subAccount = bodyString(b, 'sub_account', true);
        const currency = currencyName(bodyString(b, 'currency', true));
        const amount = bodyAmount(b);
        const direction = bodyString(b, 'direction', true);
        const coid = b.client_order_id;
        if (coid !== undefined && coid !== null && typeof coid !== 'string')
          throw new ApiError('INVALID_CLIENT_ORDER_ID', 'client_order_id must be a string');
        return mainSubTransfer(
          db,
          caller.mainUid,
          {
            sub_account: subAccount,
            sub_account_type: bodyString(b, 'sub_account_type', false) ?? 'spot',
            currency,
            amount,
            direction,
            client_order_id: typeof coid === 'string' ? coid : '',
          },
          nowSec,
        );
      },
    },
    {
      // §4.1: the main key, or the source sub-account's own key.
      method: 'POST',
      path: '/wallet/sub_account_to_sub_account',
      group: 'wallet',
      handler: ({ db, caller, body, nowSec }) => {
        const b = bodyObject(body, 'currency');
        const currency = currencyName(bodyString(b, 'currency', true));
        const input = {
          currency,
          sub_account_from: bodyString(b, 'sub_account_from', true),
          sub_account_from_type: bodyString(b, 'sub_account_from_type', true),
          sub_account_to: bodyString(b, 'sub_account_to', true),
          sub_account_to_type: bodyString(b, 'sub_account_to_type', true),
          amount: bodyAmount(b),
        };
        return subToSubTransfer(db, caller, input, nowSec);
      },
    },
    {
      // §4.1, §2.5: by client_order_id or tx_id, at least one.
      method: 'GET',
      path: '/wallet/order_status',
      group: 'wallet',
      handler: ({ db, caller, query }) => {
        const coid = optional(query, 'client_order_id');
        const txId = optional(query, 'tx_id');
        if (coid === undefined && txId === undefined) throw new ApiError('MISSING_REQUIRED_PARAM', 'client_order_id or tx_id is required');
        if (txId !== undefined && !/^\d{1,19}$/.test(txId)) throw new ApiError('INVALID_PARAM_VALUE', 'tx_id must be an integer');
        return transferStatus(db, caller, coid, txId);
      },
    },
  ];
}
