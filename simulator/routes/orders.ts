import { ORDER_TEXT_LOOKUP_SEC } from '../../shared/api/orders.ts';
import { stmt, type DB } from '../db.ts';
import { ApiError } from '../errors.ts';
import { fromRow, loadOrder, listOrders, orderJson, orderWire, tradeWire, type FillRow, type OrderRec } from '../market/records.ts';
import { PAIRS } from '../ledger/catalog.ts';
import { fromScaled } from '../market/scaled.ts';
import { marketOf, type Market } from '../market/service.ts';
import { JsonText, type RequestBody, type RouteDef } from '../server.ts';
import { oneOf, pairOf, parsePlace } from './orderParams.ts';
import { intParam, optional, pageLimit, required, type Query } from './params.ts';

// §4.4 spot orders, trades and the order book. Shapes follow the live service's documentation
// (shared/api/orders.ts; simulator/README.md, "Spot market").

function wire(m: Market, o: OrderRec) {
  const p = m.pairs.get(o.pair)!;
  return orderWire(o, p, p.quote);
}

function accountFilter(q: Query): 'spot' | 'margin' | undefined {
  return oneOf(optional(q, 'account'), 'account', ['spot', 'margin'] as const);
}

/** The `GLOB` term names the partial index of custom ids (db.ts spot_orders_custom_text), which SQLite uses only so. */
export const CUSTOM_ID_LOOKUP =
  "SELECT id FROM spot_orders WHERE uid = ? AND text = ? AND text GLOB 't-*' AND create_ms >= ? ORDER BY id DESC LIMIT 1";

/**
 * An order of the caller in a pair, by id or by its `text` (custom ids stand for the order for 30
 * minutes after creation, §2.10). The resting record is the market's own, so that it is current.
 */
function findOrder(db: DB, m: Market, uid: string, pair: string, ref: string, nowSec: number): OrderRec {
  let id: number | undefined;
  if (/^\d{1,15}$/.test(ref)) id = Number(ref);
  else if (ref.startsWith('t-') && ref.length <= 30) {
    const since = Math.floor((nowSec - ORDER_TEXT_LOOKUP_SEC) * 1000);
    id = (stmt(db, CUSTOM_ID_LOOKUP).get(uid, ref, since) as { id: number } | undefined)?.id;
  } else throw new ApiError('INVALID_PARAM_VALUE', 'order_id must be an order id or a custom id starting with "t-"');
  const o = id === undefined ? undefined : (m.open.get(id) ?? loadOrder(db, id, m.pairs));
  if (!o || o.uid !== uid || o.pair !== pair) throw new ApiError('ORDER_NOT_FOUND', `no order ${ref.slice(0, 40)} of yours in ${pair}`);
  return o;
}

function cancellable(o: OrderRec): OrderRec {
  if (o.status === 'closed') throw new ApiError('ORDER_CLOSED', `order ${o.id} is already filled`);
  if (o.status === 'cancelled') throw new ApiError('ORDER_CANCELLED', `order ${o.id} is already cancelled`);
  return o;
}

function orderIdParam(params: Record<string, string>): string {
  return params.order_id ?? '';
}

const MAX_BATCH_CANCEL = 20;

const LISTED = new Set(PAIRS.map((p) => p.id));

/**
 * The market a placement names, for its §8.2 bucket. A body that names no listed pair shares one
 * bucket, so that made-up names cannot grow the limiter.
 */
function marketInBody(body: RequestBody): string {
  if (body.raw.length === 0 || body.raw.length > 4096) return '';
  const v = (body.json() as { currency_pair?: unknown } | null | undefined)?.currency_pair;
  return typeof v === 'string' && LISTED.has(v) ? v : '';
}

export function orderRoutes(): RouteDef[] {
  return [
    {
      method: 'GET',
      path: '/spot/order_book',
      group: 'public',
      handler: ({ db, query, nowSec }) => {
        const m = marketOf(db);
        const pair = pairOf(m, required(query, 'currency_pair'));
        const interval = optional(query, 'interval') ?? '0';
        if (interval !== '0') throw new ApiError('INVALID_PARAM_VALUE', 'interval: the Sandbox merges no depth; only 0 is served');
        const limit = intParam(query, 'limit', 10, 1, 100);
        const withId = oneOf(optional(query, 'with_id'), 'with_id', ['true', 'false'] as const) === 'true';
        const book = m.book(pair.id);
        const rows = (side: 'buy' | 'sell') =>
          book.depth(side, limit).map((l) => [fromScaled(l.price, pair.pp), fromScaled(l.lots, pair.ap)]);
        const changed = m.changed.get(pair.id);
        const now = Math.floor(nowSec * 1000);
        return {
          ...(withId ? { id: changed?.id ?? 0 } : {}),
          current: now,
          update: changed?.ms ?? now,
          asks: rows('sell'),
          bids: rows('buy'),
        };
      },
    },
    {
      method: 'POST',
      path: '/spot/orders',
      group: 'spot',
      status: 201,
      bucketSuffix: marketInBody,
      holdsWrites: true,
      handler: ({ db, caller, body, nowSec }) => {
        const m = marketOf(db);
        const o = m.place(caller.uid, parsePlace(m, body), nowSec);
        const p = m.pairs.get(o.pair)!;
        return new JsonText(orderJson(o, p, p.quote));
      },
    },
    {
      method: 'GET',
      path: '/spot/orders',
      group: 'spot',
      handler: ({ db, caller, query }) => {
        const m = marketOf(db);
        const pair = pairOf(m, required(query, 'currency_pair'));
        const status = oneOf(required(query, 'status'), 'status', ['open', 'finished'] as const)!;
        const p = pageLimit(query, 100, status === 'open' ? 100 : 1000);
        const side = oneOf(optional(query, 'side'), 'side', ['buy', 'sell'] as const);
        const from = optional(query, 'from'),
          to = optional(query, 'to');
        const sec = (v: string | undefined, name: string) => {
          if (v === undefined) return undefined;
          if (!/^\d{1,12}(\.\d+)?$/.test(v)) throw new ApiError('INVALID_PARAM_VALUE', `${name} must be a Unix time in seconds`);
          return Math.floor(Number(v) * 1000);
        };
        return listOrders(db, m.pairs, caller.uid, pair.id, status === 'open', {
          ...p,
          account: accountFilter(query),
          side,
          fromMs: sec(from, 'from'),
          toMs: sec(to, 'to'),
        }).map((o) => wire(m, m.open.get(o.id) ?? o));
      },
    },
    {
      // Cancels every open order of the caller in a pair (optionally one side or account).
      method: 'DELETE',
      path: '/spot/orders',
      group: 'spot',
      handler: ({ db, caller, query, nowSec }) => {
        const m = marketOf(db);
        const pair = pairOf(m, required(query, 'currency_pair'));
        const side = oneOf(optional(query, 'side'), 'side', ['buy', 'sell'] as const);
        const account = accountFilter(query);
        const mine = [...m.open.values()].filter(
          (o) => o.uid === caller.uid && o.pair === pair.id && (!side || o.side === side) && (!account || o.account === account),
        );
        return m.cancel(mine, nowSec).map((o) => wire(m, o));
      },
    },
    {
      method: 'GET',
      path: '/spot/orders/:order_id',
      group: 'spot',
      handler: ({ db, caller, query, params, nowSec }) => {
        const m = marketOf(db);
        const pair = pairOf(m, required(query, 'currency_pair'));
        accountFilter(query);
        return wire(m, findOrder(db, m, caller.uid, pair.id, orderIdParam(params), nowSec));
      },
    },
    {
      method: 'DELETE',
      path: '/spot/orders/:order_id',
      group: 'spot',
      handler: ({ db, caller, query, params, nowSec }) => {
        const m = marketOf(db);
        const pair = pairOf(m, required(query, 'currency_pair'));
        accountFilter(query);
        const o = cancellable(findOrder(db, m, caller.uid, pair.id, orderIdParam(params), nowSec));
        return wire(m, m.cancel([o], nowSec)[0]!);
      },
    },
    {
      method: 'POST',
      path: '/spot/cancel_batch_orders',
      group: 'spot',
      handler: ({ db, caller, body, nowSec }) => {
        const m = marketOf(db);
        if (body === undefined || body === null)
          throw new ApiError('MISSING_REQUIRED_PARAM', 'request body with a list of {currency_pair, id} is required');
        if (!Array.isArray(body)) throw new ApiError('INVALID_PARAM_VALUE', 'the body must be a JSON array of {currency_pair, id}');
        if (body.length > MAX_BATCH_CANCEL) throw new ApiError('INVALID_PARAM_VALUE', `at most ${MAX_BATCH_CANCEL} orders per request`);
        return body.map((item: unknown) => {
          const it = (item !== null && typeof item === 'object' && !Array.isArray(item) ? item : {}) as Record<string, unknown>;
          const pairName = typeof it.currency_pair === 'string' ? it.currency_pair : '';
          const id = typeof it.id === 'string' ? it.id : '';
          const account = typeof it.account === 'string' ? it.account : '';
          try {
            if (!pairName || !id) throw new ApiError('MISSING_REQUIRED_PARAM', 'each item needs currency_pair and id');
            const pair = pairOf(m, pairName);
            const o = cancellable(findOrder(db, m, caller.uid, pair.id, id, nowSec));
            m.cancel([o], nowSec);
            return { currency_pair: pair.id, id: String(o.id), text: o.text, succeeded: true, label: '', message: '', account };
          } catch (e) {
            if (!(e instanceof ApiError)) throw e;
            return { currency_pair: pairName, id, text: '', succeeded: false, label: e.label, message: e.message, account };
          }
        });
      },
    },
    {
      // Open orders of the caller grouped by pair; `limit` counts orders per pair (live documentation).
      method: 'GET',
      path: '/spot/open_orders',
      group: 'spot',
      handler: ({ db, caller, query }) => {
        const m = marketOf(db);
        const p = pageLimit(query, 100, 100);
        const account = accountFilter(query);
        const rows = (
          stmt(db, "SELECT * FROM spot_orders WHERE uid = ? AND status = 'open' ORDER BY pair, id DESC").all(caller.uid) as Parameters<
            typeof fromRow
          >[0][]
        )
          .map((r) => fromRow(r, m.pairs))
          .filter((o) => !account || o.account === account);
        const byPair = new Map<string, OrderRec[]>();
        for (const o of rows) byPair.set(o.pair, [...(byPair.get(o.pair) ?? []), m.open.get(o.id) ?? o]);
        return [...byPair].map(([pair, list]) => ({
          currency_pair: pair,
          total: list.length,
          orders: list.slice(p.offset, p.offset + p.limit).map((o) => wire(m, o)),
        }));
      },
    },
    {
      method: 'GET',
      path: '/spot/my_trades',
      group: 'spot',
      handler: ({ db, caller, query }) => {
        const m = marketOf(db);
        const pairName = optional(query, 'currency_pair');
        const pair = pairName === undefined ? undefined : pairOf(m, pairName).id;
        const p = pageLimit(query, 100, 1000);
        const orderId = optional(query, 'order_id');
        if (orderId !== undefined && !/^\d{1,15}$/.test(orderId)) throw new ApiError('INVALID_PARAM_VALUE', 'order_id must be an order id');
        accountFilter(query);
        const sec = (name: string, def: number) => {
          const v = optional(query, name);
          if (v === undefined) return def;
          if (!/^\d{1,12}(\.\d+)?$/.test(v)) throw new ApiError('INVALID_PARAM_VALUE', `${name} must be a Unix time in seconds`);
          return Math.floor(Number(v) * 1000);
        };
        const rows = stmt(
          db,
          `SELECT * FROM spot_fills WHERE uid = ? AND (? IS NULL OR pair = ?) AND (? IS NULL OR order_id = ?) AND ts_ms >= ? AND ts_ms <= ?
          ORDER BY id DESC LIMIT ? OFFSET ?`,
        ).all(
          caller.uid,
          pair ?? null,
          pair ?? null,
          orderId === undefined ? null : Number(orderId),
          orderId === undefined ? null : Number(orderId),
          sec('from', 0),
          sec('to', Number.MAX_SAFE_INTEGER),
          p.limit,
          p.offset,
        ) as FillRow[];
        return rows.map(tradeWire);
      },
    },
  ];
}
