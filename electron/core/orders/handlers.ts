import type { HandlerDeps, Handlers } from '../handlerDeps.ts';
import { spotOrderBook, spotOrders, spotPairs, spotTicker, spotTrades, type SpotReadDeps } from './service.ts';

// The Orders page's channels: each passes its request to the reads of service.ts.

type SpotChannels = 'spotPairs' | 'spotTicker' | 'spotOrderBook' | 'spotOrders' | 'spotTrades';

const readsOf = (deps: HandlerDeps): SpotReadDeps => ({
  call: (req, schema) => deps.call(req, schema),
  subKeys: () => deps.session.active().subKeys,
});

export const spotHandlers: Pick<Handlers, SpotChannels> = {
  spotPairs: async (_req, deps) => spotPairs(readsOf(deps)),
  spotTicker: async (req, deps) => spotTicker(readsOf(deps), req.currency_pair),
  spotOrderBook: async (req, deps) => spotOrderBook(readsOf(deps), req.currency_pair, req.limit),
  spotOrders: async (req, deps) => spotOrders(readsOf(deps), req),
  spotTrades: async (req, deps) => spotTrades(readsOf(deps), req),
};
