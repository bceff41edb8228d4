import { z } from 'zod';
import { CurrencyPair, OrderBook, SpotOrder, SpotTrade, Ticker } from '../../../shared/api/orders.ts';
import type { ApiRequest } from '../client/client.ts';
import { InputError } from '../errors.ts';
import type { HandlerDeps, Handlers } from '../handlerDeps.ts';

// The Orders page's reads (§4.4), fresh from the exchange through the one scheduler (§8.2), at the
// priority of the visible page. Orders and trades of a sub-account are read with its own key.

type SpotChannels = 'spotPairs' | 'spotTicker' | 'spotOrderBook' | 'spotOrders' | 'spotTrades';

function read<S extends z.ZodType>(deps: HandlerDeps, subUid: string | undefined, req: ApiRequest, schema: S): Promise<z.output<S>> {
  if (subUid === undefined) return deps.call(req, schema);
  const keys = deps.session.active().subKeys;
  if (!keys.has(subUid))
    throw new InputError(['sub_uid'], `This profile holds no key for sub-account ${subUid}. Add its key in Settings to see its orders.`);
  return keys.client(subUid).request(req, schema);
}

export const spotHandlers: Pick<Handlers, SpotChannels> = {
  spotPairs: async (_req, deps) => deps.call({ method: 'GET', path: '/spot/currency_pairs', signed: false }, z.array(CurrencyPair)),
  spotTicker: async (req, deps) => {
    const [t] = await deps.call(
      { method: 'GET', path: '/spot/tickers', signed: false, query: [['currency_pair', req.currency_pair]] },
      z.array(Ticker),
    );
    if (!t) throw new InputError(['currency_pair'], `The exchange has no ticker for ${req.currency_pair}.`);
    return t;
  },
  spotOrderBook: async (req, deps) =>
    deps.call(
      {
        method: 'GET',
        path: '/spot/order_book',
        signed: false,
        query: [
          ['currency_pair', req.currency_pair],
          ['limit', String(req.limit)],
        ],
      },
      OrderBook,
    ),
  spotOrders: async (req, deps) =>
    read(
      deps,
      req.sub_uid,
      {
        method: 'GET',
        path: '/spot/orders',
        query: [
          ['currency_pair', req.currency_pair],
          ['status', req.status],
          ['limit', String(req.limit)],
        ],
      },
      z.array(SpotOrder),
    ),
  spotTrades: async (req, deps) =>
    read(
      deps,
      req.sub_uid,
      {
        method: 'GET',
        path: '/spot/my_trades',
        query: [
          ['currency_pair', req.currency_pair],
          ['limit', String(req.limit)],
        ],
      },
      z.array(SpotTrade),
    ),
};
