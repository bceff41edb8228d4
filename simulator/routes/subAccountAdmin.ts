import { createSubAccount, getSubAccount, parseNewSubAccount, setSubAccountLocked } from '../ledger/subAccountAdmin.ts';
import type { Ctx, RouteDef } from '../server.ts';
import { bodyObject, mainOnly } from './params.ts';

// §4.4 sub-account management, as the live service and its SDKs shape it (simulator/README.md): main
// account keys only, in the wallet permission group, each endpoint in §8.2's management bucket.

function userId(ctx: Ctx, what: string): string {
  mainOnly(ctx.caller, what);
  return ctx.params.user_id ?? '';
}

export function subAccountAdminRoutes(): RouteDef[] {
  return [
    {
      method: 'POST',
      path: '/sub_accounts',
      group: 'wallet',
      status: 201,
      handler: (ctx) => {
        mainOnly(ctx.caller, 'POST /sub_accounts');
        const input = parseNewSubAccount(bodyObject(ctx.body, 'login_name'));
        return createSubAccount(ctx.db, ctx.caller.mainUid, input, ctx.nowSec);
      },
    },
    {
      method: 'GET',
      path: '/sub_accounts/:user_id',
      group: 'wallet',
      handler: (ctx) => getSubAccount(ctx.db, ctx.caller.mainUid, userId(ctx, 'GET /sub_accounts/{user_id}')),
    },
    ...(['lock', 'unlock'] as const).map((verb): RouteDef => ({
      method: 'POST',
      path: `/sub_accounts/:user_id/${verb}`,
      group: 'wallet',
      status: 204,
      handler: (ctx) => {
        setSubAccountLocked(ctx.db, ctx.caller.mainUid, userId(ctx, `POST /sub_accounts/{user_id}/${verb}`), verb === 'lock');
        ctx.keys.invalidate();
        return null;
      },
    })),
  ];
}
