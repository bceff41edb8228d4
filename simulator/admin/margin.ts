import { ApiError } from '../errors.ts';
import { currencyRow } from '../ledger/catalog.ts';
import { account } from '../ledger/transfers.ts';
import { bodyObject, bodyString } from '../routes/params.ts';
import { forgetTotals } from '../routes/wallet.ts';
import type { AdminRouteDef } from './types.ts';

// Sets one currency of an account's cross margin balance (opening the account when it has none), so
// that a test can move §2.8 `risk` = total / borrowed (valued in USDT) where it wants it.

function plain(b: Record<string, unknown>, name: string): string {
  const v = bodyString(b, name, false) ?? '0';
  if (!/^(0|[1-9]\d{0,17})(\.\d{1,8})?$/.test(v))
    throw new ApiError('INVALID_PARAM_VALUE', `${name} must be a plain decimal string, 0 or more, at most 8 decimals`);
  return v;
}

export const marginAdminRoutes: AdminRouteDef[] = [
  {
    method: 'PUT',
    path: '/accounts/:uid/cross_margin',
    handler: (ctx) => {
      const uid = ctx.params.uid ?? '';
      if (!account(ctx.db, uid)) throw new ApiError('USER_NOT_FOUND', `no account ${uid}`);
      const b = bodyObject(ctx.body, 'currency');
      const currency = bodyString(b, 'currency', true).toUpperCase();
      if (!currencyRow(ctx.db, currency)) throw new ApiError('INVALID_CURRENCY', `unknown currency ${currency}`);
      const row = { available: plain(b, 'available'), freeze: plain(b, 'freeze'), borrowed: plain(b, 'borrowed') };
      ctx.db
        .prepare(
          `INSERT INTO balances (uid, account_type, sub_key, currency, available, locked, borrowed, unrealised_pnl)
        VALUES (?, 'cross_margin', '', ?, ?, ?, ?, '0')
        ON CONFLICT DO UPDATE SET available = excluded.available, locked = excluded.locked, borrowed = excluded.borrowed`,
        )
        .run(uid, currency, row.available, row.freeze, row.borrowed);
      forgetTotals(ctx.db);
      return { uid, currency, ...row };
    },
  },
];
