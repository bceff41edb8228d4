import { createSubAccount, getSubAccount, parseNewSubAccount, setSubAccountLocked } from '../ledger/subAccountAdmin.ts';
import {
  createSubAccountKey,
  deleteSubAccountKey,
  getSubAccountKey,
  listSubAccountKeys,
  updateSubAccountKey,
} from '../ledger/subAccountKeys.ts';
import type { Ctx, RouteDef } from '../server.ts';
import { bodyObject, mainOnly } from './params.ts';

// §4.4 sub-account management, as the live service and its SDKs shape it (simulator/README.md): main
// account keys only, in the wallet permission group, each endpoint in §8.2's management bucket. Every
// write that changes what a key may do drops the key cache, so it holds from the next request on.

function userId(ctx: Ctx, what: string): string {
  mainOnly(ctx.caller, what);
  return ctx.params.user_id ?? '';
}

/** A write that changes what some key may do. */
function changesKeys(ctx: Ctx, write: () => unknown): unknown {
  const out = write();
  ctx.keys.invalidate();
  return out;
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
        const uid = userId(ctx, `POST /sub_accounts/{user_id}/${verb}`);
        return changesKeys(ctx, () => setSubAccountLocked(ctx.db, ctx.caller.mainUid, uid, verb === 'lock'));
      },
    })),
    {
      method: 'GET',
      path: '/sub_accounts/:user_id/keys',
      group: 'wallet',
      handler: (ctx) => listSubAccountKeys(ctx.db, ctx.caller.mainUid, userId(ctx, 'GET /sub_accounts/{user_id}/keys')),
    },
    {
      method: 'POST',
      path: '/sub_accounts/:user_id/keys',
      group: 'wallet',
      handler: (ctx) => {
        const uid = userId(ctx, 'POST /sub_accounts/{user_id}/keys');
        return changesKeys(ctx, () => createSubAccountKey(ctx.db, ctx.caller.mainUid, uid, bodyObject(ctx.body, 'perms'), ctx.nowSec));
      },
    },
    {
      method: 'GET',
      path: '/sub_accounts/:user_id/keys/:key',
      group: 'wallet',
      handler: (ctx) => {
        const uid = userId(ctx, 'GET /sub_accounts/{user_id}/keys/{key}');
        return getSubAccountKey(ctx.db, ctx.caller.mainUid, uid, ctx.params.key ?? '');
      },
    },
    {
      method: 'PUT',
      path: '/sub_accounts/:user_id/keys/:key',
      group: 'wallet',
      status: 204,
      handler: (ctx) => {
        const uid = userId(ctx, 'PUT /sub_accounts/{user_id}/keys/{key}');
        const body = bodyObject(ctx.body, 'perms');
        return changesKeys(ctx, () => updateSubAccountKey(ctx.db, ctx.caller.mainUid, uid, ctx.params.key ?? '', body, ctx.nowSec));
      },
    },
    {
      method: 'DELETE',
      path: '/sub_accounts/:user_id/keys/:key',
      group: 'wallet',
      status: 204,
      handler: (ctx) => {
        const uid = userId(ctx, 'DELETE /sub_accounts/{user_id}/keys/{key}');
        return changesKeys(ctx, () => deleteSubAccountKey(ctx.db, ctx.caller.mainUid, uid, ctx.params.key ?? ''));
      },
    },
  ];
}
