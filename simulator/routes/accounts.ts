import { stmt } from '../db.ts';
import { ApiError } from '../errors.ts';
import { FUTURES_SETTLES } from '../ledger/catalog.ts';
import type { RouteDef } from '../server.ts';
import { accountBook, BOOK_TYPES } from '../ledger/accountBook.ts';
import { currencyName, MAX_RANGE_SEC, optional, pageLimit, timeRange } from './params.ts';
import { balancesByUid, crossView, futuresAccount, marginView, Prices } from './views.ts';

// §4.4 the caller's own account reads the desk needs; the spec names them without shapes, so the
// shapes follow the live service's documentation (simulator/README.md (endpoints section)).

export function accountRoutes(): RouteDef[] {
  return [
    {
      method: 'GET',
      path: '/spot/accounts',
      group: 'spot',
      handler: ({ db, caller, query }) => {
        const c = optional(query, 'currency');
        const rows = balancesByUid(db, 'spot', [caller.uid]).get(caller.uid)!;
        return rows
          .filter((r) => c === undefined || r.currency === currencyName(c))
          .map((r) => ({ currency: r.currency, available: r.available, locked: r.locked, update_id: 1 }));
      },
    },
    {
      // §4.4 names it; §8.1: page-limit, at most 1,000 a page, a range of at most 30 days (7 by default).
      method: 'GET',
      path: '/spot/account_book',
      group: 'spot',
      handler: ({ db, caller, query, nowSec }) => {
        const c = optional(query, 'currency');
        const type = optional(query, 'type');
        if (type !== undefined && !Object.values(BOOK_TYPES).some((t) => t.type === type))
          throw new ApiError(
            'INVALID_PARAM_VALUE',
            `type must be one of ${[...new Set(Object.values(BOOK_TYPES).map((t) => t.type))].join(', ')}`,
          );
        const { from, to } = timeRange(query, nowSec, MAX_RANGE_SEC);
        const p = pageLimit(query, 100, 1000);
        return accountBook(db, {
          uid: caller.uid,
          ...(c === undefined ? {} : { currency: currencyName(c) }),
          ...(type === undefined ? {} : { type }),
          fromMs: from * 1000,
          toMs: to * 1000 + 999,
          ...p,
        });
      },
    },
    {
      method: 'GET',
      path: '/margin/accounts',
      group: 'spot',
      handler: ({ db, caller, query }) => {
        const pair = optional(query, 'currency_pair');
        if (pair !== undefined && !stmt(db, 'SELECT 1 FROM currency_pairs WHERE id = ?').get(pair))
          throw new ApiError('INVALID_CURRENCY_PAIR', `unknown currency pair ${pair}`);
        const rows = balancesByUid(db, 'margin', [caller.uid]).get(caller.uid)!;
        return marginView(
          new Prices(db),
          rows.filter((r) => pair === undefined || r.sub_key === pair),
        );
      },
    },
    {
      // USER_NOT_FOUND until a transfer opens the account (§7 futures).
      method: 'GET',
      path: '/futures/:settle/accounts',
      group: 'futures',
      handler: ({ db, caller, params, nowSec }) => {
        const settle = (params.settle ?? '').toLowerCase();
        if (!(FUTURES_SETTLES as readonly string[]).includes(settle))
          throw new ApiError('INVALID_PARAM_VALUE', `settle must be one of ${FUTURES_SETTLES.join(', ')}`);
        const row = balancesByUid(db, 'futures', [caller.uid])
          .get(caller.uid)!
          .find((r) => r.sub_key === settle);
        if (!row) throw new ApiError('USER_NOT_FOUND', `no ${settle} futures account yet; a transfer into it opens it`);
        return futuresAccount(caller.uid, settle, row, nowSec);
      },
    },
    {
      method: 'GET',
      path: '/margin/cross/accounts',
      group: 'spot',
      handler: ({ db, caller, nowSec }) => {
        const rows = balancesByUid(db, 'cross_margin', [caller.uid]).get(caller.uid)!;
        if (rows.length === 0) throw new ApiError('USER_NOT_FOUND', 'no cross margin account');
        return { ...crossView(new Prices(db), caller.uid, rows), refresh_time: Math.floor(nowSec * 1000) };
      },
    },
  ];
}
