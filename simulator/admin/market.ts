import { stmt } from '../db.ts';
import { ApiError } from '../errors.ts';
import { account } from '../ledger/transfers.ts';
import { noteStpGroup } from '../market/service.ts';
import { bodyObject } from '../routes/params.ts';
import type { AdminRouteDef } from './types.ts';

// Admin routes of the spot market. Self-trade prevention needs membership in a trading group (§3.5);
// the live service manages groups under /account/stp_groups, which the Sandbox does not serve, so the
// admin API puts accounts in a group.

export const marketAdminRoutes: AdminRouteDef[] = [
  {
    // {"stp_id": n} (1 to 2^31-1) puts the account in group n; {"stp_id": 0} or null takes it out.
    method: 'PUT',
    path: '/accounts/:uid/stp_group',
    handler: (ctx) => {
      const uid = ctx.params.uid ?? '';
      if (!account(ctx.db, uid)) throw new ApiError('USER_NOT_FOUND', `no account ${uid.slice(0, 40)}`);
      const b = bodyObject(ctx.body, 'stp_id');
      const id = b.stp_id ?? 0;
      if (typeof id !== 'number' || !Number.isInteger(id) || id < 0 || id > 2 ** 31 - 1) {
        throw new ApiError('INVALID_PARAM_VALUE', 'stp_id must be an integer from 0 (no group) to 2147483647');
      }
      if (id === 0) stmt(ctx.db, 'DELETE FROM stp_members WHERE uid = ?').run(uid);
      else
        stmt(ctx.db, 'INSERT INTO stp_members (uid, stp_id) VALUES (?, ?) ON CONFLICT(uid) DO UPDATE SET stp_id = excluded.stp_id').run(
          uid,
          id,
        );
      noteStpGroup(ctx.db, uid, id);
      return { uid, stp_id: id };
    },
  },
];
