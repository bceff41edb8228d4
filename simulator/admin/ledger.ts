import { stmt } from '../db.ts';
import { ApiError } from '../errors.ts';
import { chainsOf, currencyRow } from '../ledger/catalog.ts';
import { DEPOSIT_STATUSES, depositRecord, recordDeposit } from '../ledger/deposits.ts';
import { account } from '../ledger/transfers.ts';
import { moveWithdrawal } from '../lifecycle.ts';
import { createWithdrawal, parseWithdrawalId } from '../ledger/withdrawals.ts';
import { forgetMarket } from '../market/service.ts';
import { bodyAmount, bodyObject, bodyString } from '../routes/params.ts';
import { forgetTotals } from '../routes/wallet.ts';
import { copyWorld, createKey, resetWorld, ALL_WRITE, type WorldName } from '../world.ts';
import { addressShape } from '../ledger/addresses.ts';
import type { AdminCtx, AdminRouteDef } from './types.ts';

// Admin routes over money and records (paths relative to admin_url). The platform mounts them behind
// the loopback check and the Bearer token.

function obj(ctx: AdminCtx): Record<string, unknown> {
  return ctx.body === undefined ? {} : bodyObject(ctx.body, 'body');
}

function intQuery(ctx: AdminCtx, name: string, def: number): number {
  const v = ctx.query.get(name);
  if (v === undefined || v === '') return def;
  if (!/^\d{1,12}(\.\d+)?$/.test(v)) throw new ApiError('INVALID_PARAM_VALUE', `${name} must be a Unix time in seconds`);
  return Math.floor(Number(v));
}

export const ledgerAdminRoutes: AdminRouteDef[] = [
  {
    // A whole copy of a world under a new main account; answers like credentials.json.
    method: 'POST',
    path: '/accounts',
    handler: (ctx) => {
      const world = (bodyString(obj(ctx), 'world', false) ?? ctx.options.world) as WorldName;
      if (world !== 'demo' && world !== 'bench') throw new ApiError('INVALID_PARAM_VALUE', 'world must be demo or bench');
      const seed = copyWorld(ctx.db, world, ctx.clock.now());
      return { main: seed.main, read_only: seed.readOnly, sub_accounts: seed.subAccounts };
    },
  },
  {
    // A new, empty sub-account under a main account, with a read-write key of its own.
    method: 'POST',
    path: '/accounts/:uid/sub_accounts',
    handler: (ctx) => {
      const main = account(ctx.db, ctx.params.uid ?? '');
      if (!main || main.main_uid !== null) throw new ApiError('USER_NOT_FOUND', `no main account ${ctx.params.uid}`);
      const name = bodyString(obj(ctx), 'name', false) ?? '';
      if (name !== '' && !/^[A-Za-z0-9_]{1,32}$/.test(name))
        throw new ApiError('INVALID_PARAM_VALUE', 'name: letters, digits and "_" only');
      return ctx.db.transaction(() => {
        const top = stmt(ctx.db, 'SELECT MAX(CAST(uid AS INTEGER)) AS m FROM accounts WHERE main_uid = ?').get(main.uid) as {
          m: number | null;
        };
        const uid = String(top.m === null ? Number(main.uid) + 100 : top.m + 1);
        stmt(ctx.db, 'INSERT INTO accounts (uid, main_uid, name, locked, created_at) VALUES (?, ?, ?, 0, ?)').run(
          uid,
          main.uid,
          name || `sub_${uid}`,
          Math.floor(ctx.clock.now()),
        );
        const key = createKey(ctx.db, uid, ALL_WRITE, `sub ${name || uid}`);
        return { uid, name: name || `sub_${uid}`, main_uid: main.uid, key: key.key, secret: key.secret };
      })();
    },
  },
  {
    // Credits a deposit (status DONE unless told) to the account's spot account.
    method: 'POST',
    path: '/deposits',
    handler: (ctx) => {
      const b = obj(ctx);
      const uid = bodyString(b, 'uid', true);
      if (!account(ctx.db, uid)) throw new ApiError('USER_NOT_FOUND', `no account ${uid}`);
      const currency = bodyString(b, 'currency', true).toUpperCase();
      if (!currencyRow(ctx.db, currency)) throw new ApiError('INVALID_CURRENCY', `unknown currency ${currency}`);
      const chains = chainsOf(ctx.db, currency);
      const chainName = bodyString(b, 'chain', false) ?? chains[0]!.chain;
      if (!chains.some((c) => c.chain === chainName))
        throw new ApiError('INVALID_PARAM_VALUE', `chain ${chainName} is not a chain of ${currency}`);
      const status = bodyString(b, 'status', false) ?? 'DONE';
      if (!(DEPOSIT_STATUSES as readonly string[]).includes(status))
        throw new ApiError('INVALID_PARAM_VALUE', `status must be one of ${DEPOSIT_STATUSES.join(', ')}`);
      let n = 0;
      const next = () => (n = (n * 1103515245 + 12345 + Math.floor(ctx.clock.now() * 1000)) >>> 0);
      const row = recordDeposit(
        ctx.db,
        {
          uid,
          currency,
          chain: chainName,
          address: bodyString(b, 'address', false) ?? addressShape(chainName, next),
          memo: bodyString(b, 'memo', false) ?? '',
          amount: bodyAmount(b),
          txid: bodyString(b, 'txid', false) ?? `admin-${Date.now().toString(16)}-${next().toString(16)}`,
          status,
        },
        ctx.clock.now(),
      );
      forgetTotals(ctx.db);
      return depositRecord(row);
    },
  },
  {
    // Saves an address on the account's exchange-side list (§2.9), as its owner would on the exchange's site:
    // verified ("1") or not ("0", the default). A desk counts a verified one as a known destination.
    method: 'POST',
    path: '/accounts/:uid/saved_addresses',
    handler: (ctx) => {
      const uid = ctx.params.uid ?? '';
      if (!account(ctx.db, uid)) throw new ApiError('USER_NOT_FOUND', `no account ${uid}`);
      const b = obj(ctx);
      const currency = bodyString(b, 'currency', true).toUpperCase();
      if (!currencyRow(ctx.db, currency)) throw new ApiError('INVALID_CURRENCY', `unknown currency ${currency}`);
      const chain = bodyString(b, 'chain', true);
      if (!chainsOf(ctx.db, currency).some((c) => c.chain === chain))
        throw new ApiError('INVALID_PARAM_VALUE', `chain ${chain} is not a chain of ${currency}`);
      const address = bodyString(b, 'address', true);
      if (!/^[\x21-\x7e]{1,256}$/.test(address)) throw new ApiError('INVALID_PARAM_VALUE', 'address: 1 to 256 printable ASCII characters');
      const tag = bodyString(b, 'tag', false) ?? '';
      const verified = bodyString(b, 'verified', false) ?? '0';
      if (verified !== '0' && verified !== '1') throw new ApiError('INVALID_PARAM_VALUE', 'verified must be "0" or "1"');
      const name = bodyString(b, 'name', false) ?? `saved ${address.slice(0, 8)}`;
      const top = stmt(ctx.db, 'SELECT MAX(ord) AS m FROM saved_addresses WHERE uid = ?').get(uid) as { m: number | null };
      stmt(
        ctx.db,
        'INSERT INTO saved_addresses (uid, currency, chain, address, name, tag, verified, ord) VALUES (?, ?, ?, ?, ?, ?, ?, ?)',
      ).run(uid, currency, chain, address, name, tag, verified, (top.m ?? 0) + 1);
      return { currency, chain, address, name, tag, verified };
    },
  },
  {
    // Moves one withdrawal to a §3.1 list status, with that status's effects (txid, refund, receiver credit).
    method: 'POST',
    path: '/withdrawals/:id/status',
    handler: (ctx) => {
      const status = bodyString(obj(ctx), 'status', true);
      const record = moveWithdrawal(ctx.db, ctx.params.id ?? '', status, ctx.clock.now(), ctx.options.speed);
      forgetTotals(ctx.db);
      return record;
    },
  },
  {
    // A second withdrawal under the same withdraw_order_id as :id, debited like the first: what a client
    // that resent an attempt still in flight would leave (docs/sandbox.md §Faults), staged on purpose.
    method: 'POST',
    path: '/withdrawals/:id/duplicate',
    handler: (ctx) => {
      const seq = parseWithdrawalId(ctx.params.id ?? '');
      if (seq === null) throw new ApiError('INVALID_WITHDRAW_ID', `not a withdrawal id: ${ctx.params.id ?? ''}`);
      const w = stmt(
        ctx.db,
        'SELECT uid, withdraw_order_id, currency, chain, address, memo, amount, asset_class FROM withdrawals WHERE seq = ?',
      ).get(seq) as
        | {
            uid: string;
            withdraw_order_id: string;
            currency: string;
            chain: string;
            address: string;
            memo: string;
            amount: string;
            asset_class: string;
          }
        | undefined;
      if (!w) throw new ApiError('INVALID_WITHDRAW_ID', `no withdrawal ${ctx.params.id ?? ''}`);
      const copy = createWithdrawal(ctx.db, w, ctx.clock.now(), ctx.options.speed, false);
      forgetTotals(ctx.db);
      return copy;
    },
  },
  {
    // Counts for benchmarks: withdrawals and deposits of a uid with from <= timestamp <= to.
    method: 'GET',
    path: '/counts',
    handler: (ctx) => {
      const uid = ctx.query.get('uid');
      if (!uid) throw new ApiError('MISSING_REQUIRED_PARAM', 'uid is required');
      const from = intQuery(ctx, 'from', 0);
      const to = intQuery(ctx, 'to', Math.floor(ctx.clock.now()));
      const count = (table: string) =>
        (
          stmt(ctx.db, `SELECT COUNT(*) AS n FROM ${table} WHERE uid = ? AND timestamp >= ? AND timestamp <= ?`).get(uid, from, to) as {
            n: number;
          }
        ).n;
      const subs = (stmt(ctx.db, 'SELECT COUNT(*) AS n FROM accounts WHERE main_uid = ?').get(uid) as { n: number }).n;
      return { uid, from, to, withdrawals: count('withdrawals'), deposits: count('deposits'), sub_accounts: subs };
    },
  },
  {
    // Back to the seeded world; the first main account's keys stay valid.
    method: 'POST',
    path: '/reset',
    handler: (ctx) => {
      resetWorld(ctx.db, ctx.clock.now());
      forgetTotals(ctx.db);
      forgetMarket(ctx.db);
      return { reset: true };
    },
  },
];
