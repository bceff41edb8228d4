import { z } from 'zod';
import { CurrencyPair, OrderBook, SpotOrder, SpotTrade, Ticker } from '../../../shared/api/orders.ts';
import type { ApiClient, ApiRequest } from '../client/client.ts';
import { InputError } from '../errors.ts';

// The Orders page's reads (§4.4), fresh from the exchange through the one scheduler (§8.2), at the
// priority of the visible page. Orders and trades of a sub-account are read with its own key. The
// handlers (handlers.ts) only pass the channel's request on: what is asked of the exchange is said here.

/** What the reads need: the active profile's signed call, and the clients that sign with its sub-accounts' keys. */
export interface SpotReadDeps {
  call<S extends z.ZodType>(req: ApiRequest, schema: S): Promise<z.output<S>>;
  subKeys(): { has(uid: string): boolean; client(uid: string): Pick<ApiClient, 'request'> };
}

function read<S extends z.ZodType>(d: SpotReadDeps, subUid: string | undefined, req: ApiRequest, schema: S): Promise<z.output<S>> {
  if (subUid === undefined) return d.call(req, schema);
  const keys = d.subKeys();
  if (!keys.has(subUid))
    throw new InputError(['sub_uid'], `This profile holds no key for sub-account ${subUid}. Add its key in Settings to see its orders.`);
  return keys.client(subUid).request(req, schema);
}

export function spotPairs(d: SpotReadDeps): Promise<z.output<typeof CurrencyPair>[]> {
  return d.call({ method: 'GET', path: '/spot/currency_pairs', signed: false }, z.array(CurrencyPair));
}

export async function spotTicker(d: SpotReadDeps, pair: string): Promise<z.output<typeof Ticker>> {
  const [t] = await d.call({ method: 'GET', path: '/spot/tickers', signed: false, query: [['currency_pair', pair]] }, z.array(Ticker));
  if (!t) throw new InputError(['currency_pair'], `The exchange has no ticker for ${pair}.`);
  return t;
}

export function spotOrderBook(d: SpotReadDeps, pair: string, limit: number): Promise<z.output<typeof OrderBook>> {
  return d.call(
    {
      method: 'GET',
      path: '/spot/order_book',
      signed: false,
      query: [
        ['currency_pair', pair],
        ['limit', String(limit)],
      ],
    },
    OrderBook,
  );
}

export function spotOrders(
  d: SpotReadDeps,
  q: { currency_pair: string; status: string; limit: number; sub_uid?: string | undefined },
): Promise<z.output<typeof SpotOrder>[]> {
  return read(
    d,
    q.sub_uid,
    {
      method: 'GET',
      path: '/spot/orders',
      query: [
        ['currency_pair', q.currency_pair],
        ['status', q.status],
        ['limit', String(q.limit)],
      ],
    },
    z.array(SpotOrder),
  );
}

export function spotTrades(
  d: SpotReadDeps,
  q: { currency_pair: string; limit: number; sub_uid?: string | undefined },
): Promise<z.output<typeof SpotTrade>[]> {
  return read(
    d,
    q.sub_uid,
    {
      method: 'GET',
      path: '/spot/my_trades',
      query: [
        ['currency_pair', q.currency_pair],
        ['limit', String(q.limit)],
      ],
    },
    z.array(SpotTrade),
  );
}
