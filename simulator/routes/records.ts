import { stmt, type DB } from '../db.ts';
import { ApiError } from '../errors.ts';
import { depositRecord, type DepositRow } from '../ledger/deposits.ts';
import { subAccount } from '../ledger/transfers.ts';
import { parseWithdrawalId, WITHDRAWAL_WIRE_COLUMNS, withdrawalRecord, type WithdrawalWire } from '../ledger/withdrawals.ts';
import type { Caller } from '../auth.ts';
import type { RouteDef } from '../server.ts';
import { currencyName, intParam, limitOffset, MAX_RANGE_SEC, optional, timeRange } from './params.ts';

// §4.1 lists of money movements: withdrawals, deposits, main/sub transfers, UID transfers. Newest first.

function filtered<T>(db: DB, sql: string, args: unknown[], currency: string | undefined): T[] {
  return (
    currency === undefined
      ? stmt(db, sql.replace('{currency}', '')).all(...args)
      : stmt(db, sql.replace('{currency}', 'AND currency = ?')).all(...args.slice(0, 3), currency, ...args.slice(3))
  ) as T[];
}

/** sub_uid of the sub-account lists: comma-separated ids of this main account's sub-accounts. */
export function subUidList(db: DB, caller: Caller, raw: string | undefined): string[] | null {
  if (raw === undefined) return null;
  const ids = raw.split(',').map((s) => s.trim());
  if (ids.some((id) => !/^\d{1,19}$/.test(id))) throw new ApiError('INVALID_PARAM_VALUE', 'sub_uid must be user ids separated by ","');
  for (const id of ids) subAccount(db, caller.mainUid, id);
  return ids;
}

export function recordRoutes(): RouteDef[] {
  return [
    {
      // §4.1, §2.3, §8.1
      method: 'GET',
      path: '/wallet/withdrawals',
      group: 'wallet',
      handler: ({ db, caller, query, nowSec }) => {
        const assetClass = optional(query, 'asset_class');
        if (assetClass !== undefined && assetClass !== 'SPOT' && assetClass !== 'PILOT')
          throw new ApiError('INVALID_PARAM_VALUE', 'asset_class must be SPOT or PILOT');
        const currency = optional(query, 'currency');
        const cur = currency === undefined ? undefined : currencyName(currency);
        const p = limitOffset(query);
        const withdrawId = optional(query, 'withdraw_id');
        const woid = optional(query, 'withdraw_order_id');
        let rows: WithdrawalWire[];
        const select = `SELECT ${WITHDRAWAL_WIRE_COLUMNS} FROM withdrawals`;
        if (withdrawId !== undefined) {
          // Only this record; time filtering is off (§4.1).
          const seq = parseWithdrawalId(withdrawId);
          if (seq === null) throw new ApiError('INVALID_PARAM_VALUE', 'withdraw_id must look like w123456');
          rows = stmt(db, `${select} WHERE seq = ? AND uid = ?`).all(seq, caller.uid) as WithdrawalWire[];
        } else if (woid !== undefined) {
          // Every record with this client id, whatever its time: a reused id may match several.
          rows = stmt(db, `${select} WHERE uid = ? AND withdraw_order_id = ? ORDER BY timestamp DESC, seq DESC LIMIT ? OFFSET ?`).all(
            caller.uid,
            woid,
            p.limit,
            p.offset,
          ) as WithdrawalWire[];
        } else {
          const { from, to } = timeRange(query, nowSec, MAX_RANGE_SEC);
          rows = filtered<WithdrawalWire>(
            db,
            `${select} WHERE uid = ? AND timestamp >= ? AND timestamp <= ? {currency} ORDER BY timestamp DESC, seq DESC LIMIT ? OFFSET ?`,
            [caller.uid, from, to, p.limit, p.offset],
            cur,
          );
        }
        // Every Sandbox currency is in the main zone (SPOT); the innovation zone (PILOT) is empty.
        if (assetClass === 'PILOT') rows = [];
        return rows.map(withdrawalRecord);
      },
    },
    {
      // §4.1, §2.4: limit at most 500.
      method: 'GET',
      path: '/wallet/deposits',
      group: 'wallet',
      handler: ({ db, caller, query, nowSec }) => {
        const currency = optional(query, 'currency');
        const p = limitOffset(query, 100, 500);
        const { from, to } = timeRange(query, nowSec, MAX_RANGE_SEC);
        return filtered<DepositRow>(
          db,
          'SELECT * FROM deposits WHERE uid = ? AND timestamp >= ? AND timestamp <= ? {currency} ORDER BY timestamp DESC, seq DESC LIMIT ? OFFSET ?',
          [caller.uid, from, to, p.limit, p.offset],
          currency === undefined ? undefined : currencyName(currency),
        ).map(depositRecord);
      },
    },
    {
      // §4.1, §2.5: main/sub transfers of this main account; a sub-account key sees its own.
      method: 'GET',
      path: '/wallet/sub_account_transfers',
      group: 'wallet',
      handler: ({ db, caller, query, nowSec }) => {
        const only = caller.isSub ? [caller.uid] : subUidList(db, caller, optional(query, 'sub_uid'));
        const p = limitOffset(query);
        const { from, to } = timeRange(query, nowSec, MAX_RANGE_SEC);
        const base = "SELECT * FROM transfers WHERE main_uid = ? AND kind = 'main_sub' AND timest >= ? AND timest <= ?";
        const order = ' ORDER BY timest DESC, tx_id DESC LIMIT ? OFFSET ?';
        const rows = (
          only === null
            ? stmt(db, base + order).all(caller.mainUid, from, to, p.limit, p.offset)
            : db
                .prepare(`${base} AND sub_account IN (${only.map(() => '?').join(',')})${order}`)
                .all(caller.mainUid, from, to, ...only, p.limit, p.offset)
        ) as {
          main_uid: string;
          sub_account: string;
          sub_account_type: string;
          currency: string;
          amount: string;
          direction: string;
          source: string;
          client_order_id: string;
          timest: number;
        }[];
        return rows.map((r) => ({
          timest: String(r.timest),
          uid: r.main_uid,
          sub_account: r.sub_account,
          sub_account_type: r.sub_account_type,
          currency: r.currency,
          amount: r.amount,
          direction: r.direction,
          source: r.source,
          client_order_id: r.client_order_id,
          status: 'success',
        }));
      },
    },
    {
      // §4.1, §2.6: UID transfers sent (withdraw, the default) or received (deposit).
      method: 'GET',
      path: '/wallet/push',
      group: 'wallet',
      handler: ({ db, caller, query, nowSec }) => {
        const type = optional(query, 'transaction_type') ?? 'withdraw';
        if (type !== 'withdraw' && type !== 'deposit')
          throw new ApiError('INVALID_PARAM_VALUE', 'transaction_type must be withdraw or deposit');
        const p = limitOffset(query);
        const id = optional(query, 'id') === undefined ? undefined : intParam(query, 'id', 0, 1, Number.MAX_SAFE_INTEGER);
        const side = type === 'withdraw' ? 'push_uid' : 'receive_uid';
        let rows: {
          id: number;
          push_uid: string;
          receive_uid: string;
          currency: string;
          amount: string;
          create_time: number;
          status: string;
          message: string;
        }[];
        if (id !== undefined) {
          rows = stmt(db, `SELECT * FROM uid_transfers WHERE id = ? AND ${side} = ?`).all(id, caller.uid) as typeof rows;
        } else {
          const { from, to } = timeRange(query, nowSec);
          rows = stmt(
            db,
            `SELECT * FROM uid_transfers WHERE ${side} = ? AND create_time >= ? AND create_time <= ? ORDER BY create_time DESC, id DESC LIMIT ? OFFSET ?`,
          ).all(caller.uid, from, to, p.limit, p.offset) as typeof rows;
        }
        return rows.map((r) => ({
          id: r.id,
          push_uid: Number(r.push_uid),
          receive_uid: Number(r.receive_uid),
          currency: r.currency,
          amount: r.amount,
          create_time: r.create_time,
          status: r.status,
          message: r.message,
          transaction_type: type,
        }));
      },
    },
  ];
}
