import { ApiError } from '../errors.ts';
import { pushTransfer } from '../ledger/transfers.ts';
import { cancelWithdrawal, createWithdrawal } from '../ledger/withdrawals.ts';
import type { SandboxOptions } from '../options.ts';
import type { RouteDef } from '../server.ts';
import { addressLooksValid } from '../ledger/addresses.ts';
import { bodyAmount, bodyObject, bodyString, currencyName, mainOnly } from './params.ts';

// §4.2 withdrawals, UID transfers and cancellation.

/** §2.3, §8.5: what POST /withdrawals accepts as a client order id (the seeded worlds hold to it too). */
export const WITHDRAW_ORDER_ID_RE = /^[0-9A-Za-z_.-]{1,32}$/;

export function withdrawalRoutes(options: SandboxOptions): RouteDef[] {
  return [
    {
      // §4.2, §5.2 (withdrawal group), §5.5 (no sub-account keys), §8.5.
      method: 'POST',
      path: '/withdrawals',
      group: 'withdraw',
      handler: ({ db, caller, body, nowSec }) => {
        mainOnly(caller, 'POST /withdrawals');
        const b = bodyObject(body, 'amount');
        const amount = bodyAmount(b);
        const currency = currencyName(bodyString(b, 'currency', true));
        const address = bodyString(b, 'address', true);
        const chain = bodyString(b, 'chain', true);
        if (!addressLooksValid(address)) throw new ApiError('INVALID_PARAM_VALUE', 'address is not a valid address');
        const woid = bodyString(b, 'withdraw_order_id', false) ?? '';
        if (woid !== '' && !WITHDRAW_ORDER_ID_RE.test(woid)) {
          throw new ApiError('INVALID_PARAM_VALUE', 'withdraw_order_id must be at most 32 characters of 0-9, A-Z, a-z, "_", "-", "."');
        }
        const assetClass = bodyString(b, 'asset_class', false) ?? '';
        if (assetClass !== '' && assetClass !== 'SPOT' && assetClass !== 'PILOT')
          throw new ApiError('INVALID_PARAM_VALUE', 'asset_class must be SPOT or PILOT');
        const memo = bodyString(b, 'memo', false) ?? '';
        if (memo.length > 128) throw new ApiError('INVALID_PARAM_VALUE', 'memo is longer than 128 characters');
        return createWithdrawal(
          db,
          { uid: caller.uid, currency, chain, address, memo, amount, withdraw_order_id: woid, asset_class: assetClass },
          nowSec,
          options.speed,
          options.refuseDuplicateWithdrawals,
        );
      },
    },
    {
      // §4.2: main spot to another main account's spot; the Sandbox puts it in the withdrawal group.
      method: 'POST',
      path: '/withdrawals/push',
      group: 'withdraw',
      handler: ({ db, caller, body, nowSec }) => {
        mainOnly(caller, 'POST /withdrawals/push');
        const b = bodyObject(body, 'receive_uid');
        const r = b.receive_uid;
        if (r === undefined || r === null || r === '') throw new ApiError('MISSING_REQUIRED_PARAM', 'receive_uid is required');
        const receive =
          typeof r === 'number' && Number.isSafeInteger(r) && r > 0
            ? String(r)
            : typeof r === 'string' && /^[1-9]\d{0,18}$/.test(r)
              ? r
              : null;
        if (receive === null) throw new ApiError('INVALID_PARAM_VALUE', 'receive_uid must be a user id');
        const currency = currencyName(bodyString(b, 'currency', true));
        return pushTransfer(db, caller.uid, { receive_uid: receive, currency, amount: bodyAmount(b) }, nowSec);
      },
    },
    {
      // §4.2, §3.1: 202, then CANCELPEND -> CANCEL with the funds returned.
      method: 'DELETE',
      path: '/withdrawals/:withdrawal_id',
      group: 'withdraw',
      status: 202,
      handler: ({ db, caller, params, nowSec }) => cancelWithdrawal(db, caller.uid, params.withdrawal_id ?? '', nowSec, options.speed),
    },
  ];
}
