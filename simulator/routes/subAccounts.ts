import { ApiError } from '../errors.ts';
import { subAccountUids } from '../ledger/transfers.ts';
import { FUTURES_SETTLES } from '../ledger/catalog.ts';
import { listSubAccounts } from '../ledger/subAccountAdmin.ts';
import type { Ctx, RouteDef } from '../server.ts';
import { mainOnly, optional, page, pageLimit } from './params.ts';
import { subUidList } from './records.ts';
import { balancesByUid, crossView, futuresAccount, marginView, Prices, spotView } from './views.ts';

// §4.1 sub-account balances (§2.8) and §4.4 GET /sub_accounts. Main account keys only: a sub-account
// has no sub-accounts of its own.

/** The sub-accounts asked for (sub_uid, comma-separated) or all of them, in uid order. */
function subs(ctx: Ctx, what: string): string[] {
  mainOnly(ctx.caller, what);
  const only = subUidList(ctx.db, ctx.caller, optional(ctx.query, 'sub_uid'));
  return only ?? subAccountUids(ctx.db, ctx.caller.mainUid);
}

export function subAccountRoutes(): RouteDef[] {
  return [
    {
      // §4.1: page-limit, default 20, maximum 100 (§8.1, v4.106.58).
      method: 'GET',
      path: '/wallet/sub_account_balances',
      group: 'wallet',
      handler: (ctx) => {
        const p = pageLimit(ctx.query, 20, 100);
        const uids = page(subs(ctx, 'GET /wallet/sub_account_balances'), p);
        const byUid = balancesByUid(ctx.db, 'spot', uids);
        return uids.map((uid) => ({ uid, ...spotView(byUid.get(uid)!) }));
      },
    },
    {
      method: 'GET',
      path: '/wallet/sub_account_margin_balances',
      group: 'wallet',
      handler: (ctx) => {
        const uids = subs(ctx, 'GET /wallet/sub_account_margin_balances');
        const byUid = balancesByUid(ctx.db, 'margin', uids);
        const prices = new Prices(ctx.db);
        return uids.map((uid) => ({ uid, available: marginView(prices, byUid.get(uid)!) }));
      },
    },
    {
      method: 'GET',
      path: '/wallet/sub_account_futures_balances',
      group: 'wallet',
      handler: (ctx) => {
        const settle = optional(ctx.query, 'settle')?.toLowerCase();
        if (settle !== undefined && !(FUTURES_SETTLES as readonly string[]).includes(settle)) {
          throw new ApiError('INVALID_PARAM_VALUE', `settle must be one of ${FUTURES_SETTLES.join(', ')}`);
        }
        const uids = subs(ctx, 'GET /wallet/sub_account_futures_balances');
        const byUid = balancesByUid(ctx.db, 'futures', uids);
        return uids.map((uid) => {
          const available: Record<string, ReturnType<typeof futuresAccount>> = {};
          for (const r of byUid.get(uid)!)
            if (settle === undefined || r.sub_key === settle) available[r.sub_key] = futuresAccount(uid, r.sub_key, r, ctx.nowSec);
          return { uid, available };
        });
      },
    },
    {
      // sub_uid optional here too: all sub-accounts when omitted, like the other three.
      method: 'GET',
      path: '/wallet/sub_account_cross_margin_balances',
      group: 'wallet',
      handler: (ctx) => {
        const uids = subs(ctx, 'GET /wallet/sub_account_cross_margin_balances');
        const byUid = balancesByUid(ctx.db, 'cross_margin', uids);
        const prices = new Prices(ctx.db);
        return uids.map((uid) => ({ uid, available: crossView(prices, uid, byUid.get(uid)!) }));
      },
    },
    {
      // §4.4, shape from the live documentation: type 0 all kinds, 1 (default) regular sub-accounts.
      method: 'GET',
      path: '/sub_accounts',
      group: 'wallet',
      handler: (ctx) => {
        mainOnly(ctx.caller, 'GET /sub_accounts');
        const type = optional(ctx.query, 'type') ?? '1';
        if (type !== '0' && type !== '1') throw new ApiError('INVALID_PARAM_VALUE', 'type must be 0 or 1');
        return listSubAccounts(ctx.db, ctx.caller.mainUid);
      },
    },
  ];
}
