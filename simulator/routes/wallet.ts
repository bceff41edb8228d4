import { VALUATION_CURRENCIES } from '../../shared/api/records.ts';
import { fmt } from '../../shared/money.ts';
import { stmt, type DB } from '../db.ts';
import { ApiError } from '../errors.ts';
import { depositAddress } from '../ledger/addresses.ts';
import { chainsOf, currencyRow, listCurrencies, type CurrencyRow } from '../ledger/catalog.ts';
import { convertSmallBalances, listSmallBalances } from '../ledger/smallBalance.ts';
import { dayRemaining } from '../ledger/withdrawals.ts';
import { JsonText, type Ctx, type RouteDef } from '../server.ts';
import { totalBalance } from '../valuation.ts';
import { bodyObject, currencyName, optional, page, pageLimit, required } from './params.ts';

// §4.1 wallet reads and the small-balance conversion: everything of /wallet/* that is not a list of
// money movements (records.ts) or a transfer (transfers.ts).

/** A currency the wallet API serves; low-liquidity ones are refused (§4.1). */
function walletCurrency(ctx: Ctx, name: string): CurrencyRow {
  const c = currencyRow(ctx.db, currencyName(name));
  if (!c || c.low_cap) throw new ApiError('INVALID_CURRENCY', `currency ${name} is not supported through the API`);
  return c;
}

/** §2.9: total balance figures are cached up to a minute per uid and target currency. */
export const TOTAL_BALANCE_TTL_SEC = 60;

// The figures are kept serialized: a hit within the minute answers the same bytes without re-encoding.
// Expired figures are dropped once a minute (Sandbox clock), so that the cache holds what was asked in
// the last minute, not every uid and currency ever asked.
interface TotalCache {
  entries: Map<string, { at: number; json: JsonText }>;
  sweptAt: number;
}
const totalCaches = new WeakMap<DB, TotalCache>();

const fresh = (at: number, nowSec: number) => nowSec - at < TOTAL_BALANCE_TTL_SEC && nowSec >= at;

function sweepTotals(cache: TotalCache, nowSec: number): void {
  if (nowSec - cache.sweptAt < TOTAL_BALANCE_TTL_SEC && nowSec >= cache.sweptAt) return;
  cache.sweptAt = nowSec;
  for (const [k, e] of cache.entries) if (!fresh(e.at, nowSec)) cache.entries.delete(k);
}

/** How many total_balance figures are cached (tests of the cache's bound). */
export function cachedTotalCount(db: DB): number {
  return totalCaches.get(db)?.entries.size ?? 0;
}

/** The admin API forgets cached totals after it changes balances behind the API's back. */
const EMPTY_BODY = new JsonText('');

export function forgetTotals(db: DB): void {
  totalCaches.delete(db);
}

export function walletRoutes(): RouteDef[] {
  return [
    {
      // §4.1, §2.1
      method: 'GET',
      path: '/wallet/deposit_address',
      group: 'wallet',
      handler: (ctx) => {
        const cur = walletCurrency(ctx, required(ctx.query, 'currency'));
        const chains = chainsOf(ctx.db, cur.currency);
        const multichain = chains.map((ch) => {
          const failed = ch.is_disabled || ch.is_deposit_disabled;
          const a = failed ? { address: '', payment_id: '' } : depositAddress(ctx.db, ctx.caller.uid, ch);
          return {
            chain: ch.chain,
            address: a.address,
            payment_id: a.payment_id,
            payment_name: ch.is_tag ? (ch.chain === 'XRP' ? 'Tag' : 'Memo') : '',
            obtain_failed: failed ? 1 : 0,
            min_confirms: ch.min_confirms,
          };
        });
        const first = multichain.find((m) => !m.obtain_failed);
        return {
          currency: cur.currency,
          address: first?.address ?? '',
          min_deposit_amount: chains[0]?.min_deposit ?? '0',
          multichain_addresses: multichain,
        };
      },
    },
    {
      // §4.1, §2.2: public, sent without signature headers.
      method: 'GET',
      path: '/wallet/currency_chains',
      group: 'public',
      handler: (ctx) => {
        const cur = walletCurrency(ctx, required(ctx.query, 'currency'));
        return chainsOf(ctx.db, cur.currency).map((ch) => ({
          chain: ch.chain,
          name_cn: ch.name_cn,
          name_en: ch.name_en,
          contract_address: ch.contract_address,
          is_disabled: ch.is_disabled,
          is_deposit_disabled: ch.is_deposit_disabled,
          is_withdraw_disabled: ch.is_withdraw_disabled,
          decimal: String(ch.decimal),
          is_tag: ch.is_tag,
        }));
      },
    },
    {
      // §4.1, §2.7: fees and limits, with the caller's remaining daily amount.
      method: 'GET',
      path: '/wallet/withdraw_status',
      group: 'wallet',
      handler: (ctx) => {
        const only = optional(ctx.query, 'currency');
        const list = only !== undefined ? [walletCurrency(ctx, only)] : listCurrencies(ctx.db).filter((c) => !c.low_cap);
        return list.map((c) => {
          const chains = chainsOf(ctx.db, c.currency);
          const fix: Record<string, string> = {};
          const pct: Record<string, string> = {};
          for (const ch of chains) {
            fix[ch.chain] = ch.fee_fix;
            pct[ch.chain] = `${ch.fee_percent}%`;
          }
          return {
            currency: c.currency,
            name: c.name,
            name_cn: c.name_cn,
            deposit: c.deposit_fee,
            withdraw_percent: `${chains[0]?.fee_percent ?? '0'}%`,
            withdraw_fix: chains[0]?.fee_fix ?? '0',
            withdraw_day_limit: c.withdraw_day,
            withdraw_day_limit_remain: fmt(dayRemaining(ctx.db, c, ctx.caller.uid, ctx.nowSec)),
            withdraw_amount_mini: c.withdraw_min,
            withdraw_eachtime_limit: c.withdraw_each,
            withdraw_fix_on_chains: fix,
            withdraw_percent_on_chains: pct,
          };
        });
      },
    },
    {
      // §4.1, §2.9
      method: 'GET',
      path: '/wallet/saved_address',
      group: 'wallet',
      handler: (ctx) => {
        const currency = currencyName(required(ctx.query, 'currency'));
        const chain = optional(ctx.query, 'chain');
        const p = pageLimit(ctx.query, 50, 100);
        const rows = (
          chain === undefined
            ? stmt(ctx.db, 'SELECT * FROM saved_addresses WHERE uid = ? AND currency = ? ORDER BY ord').all(ctx.caller.uid, currency)
            : stmt(ctx.db, 'SELECT * FROM saved_addresses WHERE uid = ? AND currency = ? AND chain = ? ORDER BY ord').all(
                ctx.caller.uid,
                currency,
                chain,
              )
        ) as { currency: string; chain: string; address: string; name: string; tag: string; verified: string }[];
        return page(rows, p).map((r) => ({
          currency: r.currency,
          chain: r.chain,
          address: r.address,
          name: r.name,
          tag: r.tag,
          verified: r.verified,
        }));
      },
    },
    {
      // §4.1, §2.9: one fee schedule for every user of the Sandbox (VIP 0).
      method: 'GET',
      path: '/wallet/fee',
      group: 'wallet',
      handler: (ctx) => {
        const pair = optional(ctx.query, 'currency_pair');
        if (pair !== undefined && !stmt(ctx.db, 'SELECT 1 FROM currency_pairs WHERE id = ?').get(pair)) {
          throw new ApiError('INVALID_CURRENCY_PAIR', `unknown currency pair ${pair}`);
        }
        const settle = optional(ctx.query, 'settle');
        if (settle !== undefined && !['BTC', 'USDT', 'USD'].includes(settle.toUpperCase()))
          throw new ApiError('INVALID_PARAM_VALUE', 'settle must be BTC, USDT or USD');
        return {
          user_id: Number(ctx.caller.uid),
          taker_fee: '0.002',
          maker_fee: '0.002',
          rpi_maker_fee: '0',
          futures_taker_fee: '0.0005',
          futures_maker_fee: '0.0002',
          futures_rpi_maker_fee: '0',
          delivery_taker_fee: '0.0005',
          delivery_maker_fee: '0.0002',
          gt_taker_fee: '0',
          gt_maker_fee: '0',
          loan_fee: '0.18',
          point_type: '1',
          gt_discount: false,
          debit_fee: 3,
          rpi_mm: 0,
        };
      },
    },
    {
      // §4.1, §2.9
      method: 'GET',
      path: '/wallet/total_balance',
      group: 'wallet',
      handler: (ctx) => {
        const currency = (optional(ctx.query, 'currency') ?? 'USDT').toUpperCase();
        if (!(VALUATION_CURRENCIES as readonly string[]).includes(currency)) {
          throw new ApiError('INVALID_PARAM_VALUE', `currency must be one of ${VALUATION_CURRENCIES.join(', ')}`);
        }
        let totalCache = totalCaches.get(ctx.db);
        if (!totalCache) totalCaches.set(ctx.db, (totalCache = { entries: new Map(), sweptAt: ctx.nowSec }));
        const key = `${ctx.caller.uid}|${currency}`;
        const hit = totalCache.entries.get(key);
        if (hit && fresh(hit.at, ctx.nowSec)) return hit.json;
        sweepTotals(totalCache, ctx.nowSec);
        const json = new JsonText(JSON.stringify(totalBalance(ctx.db, ctx.caller.uid, currency)));
        totalCache.entries.set(key, { at: ctx.nowSec, json });
        return json;
      },
    },
    {
      // §4.1, §2.9
      method: 'GET',
      path: '/wallet/small_balance',
      group: 'wallet',
      handler: (ctx) => listSmallBalances(ctx.db, ctx.caller.uid),
    },
    {
      // §4.1: the response body is not shown. The live service's documentation (Gate API v4 "Convert small
      // balance", #convertsmallbalance-responses) gives 200 with schema None, and its SDKs return void: the
      // Sandbox answers 200 with an empty body, as the live service does.
      method: 'POST',
      path: '/wallet/small_balance',
      group: 'wallet',
      handler: (ctx) => {
        const b = bodyObject(ctx.body, 'currency');
        const isAll = b.is_all;
        if (isAll !== undefined && typeof isAll !== 'boolean') throw new ApiError('INVALID_PARAM_VALUE', 'is_all must be a boolean');
        const list = b.currency;
        if (list !== undefined && (!Array.isArray(list) || !list.every((c) => typeof c === 'string' && c !== ''))) {
          throw new ApiError('INVALID_PARAM_VALUE', 'currency must be an array of currency names');
        }
        if (isAll === true) convertSmallBalances(ctx.db, ctx.caller.uid, 'all', ctx.nowSec);
        else if (Array.isArray(list) && list.length > 0)
          convertSmallBalances(ctx.db, ctx.caller.uid, (list as string[]).map(currencyName), ctx.nowSec);
        else throw new ApiError('MISSING_REQUIRED_PARAM', 'currency (a list) or is_all: true is required');
        return EMPTY_BODY;
      },
    },
    {
      // §4.1, §2.9: page-limit, default 100, 1 to 100.
      method: 'GET',
      path: '/wallet/small_balance_history',
      group: 'wallet',
      handler: (ctx) => {
        const currency = optional(ctx.query, 'currency');
        const p = pageLimit(ctx.query, 100, 100);
        const rows = (
          currency === undefined
            ? stmt(ctx.db, 'SELECT * FROM small_balance_history WHERE uid = ? ORDER BY create_time DESC, id DESC LIMIT ? OFFSET ?').all(
                ctx.caller.uid,
                p.limit,
                p.offset,
              )
            : stmt(
                ctx.db,
                'SELECT * FROM small_balance_history WHERE uid = ? AND currency = ? ORDER BY create_time DESC, id DESC LIMIT ? OFFSET ?',
              ).all(ctx.caller.uid, currencyName(currency), p.limit, p.offset)
        ) as { id: number; currency: string; amount: string; gt_amount: string; create_time: number }[];
        return rows.map((r) => ({
          id: String(r.id),
          currency: r.currency,
          amount: r.amount,
          gt_amount: r.gt_amount,
          create_time: r.create_time,
        }));
      },
    },
    {
      // §4.1
      method: 'GET',
      path: '/wallet/getLowCapExchangeList',
      group: 'wallet',
      handler: (ctx) =>
        listCurrencies(ctx.db)
          .filter((c) => c.low_cap)
          .map((c) => c.currency),
    },
  ];
}
