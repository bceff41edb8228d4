import type { HandlerDeps, Handlers } from '../handlerDeps.ts';
import { InputError } from '../errors.ts';
import type { Session } from '../session.ts';
import { DustService, LowCapCache } from './service.ts';

// The small-balance channels: each account's dust read with its own key, converted through the batch
// approvals (one confirmation for every account), followed through the active profile's journal.

type DustChannels = 'dustList' | 'dustReview' | 'dustConvert' | 'dustProgress' | 'dustHistory' | 'dustHistoryCsv' | 'lowCapCurrencies';

/** One low-cap cache per core (its session), kept across calls. */
const caches = new WeakMap<Session, LowCapCache>();

function lowCapOf(deps: Pick<HandlerDeps, 'session'>) {
  let c = caches.get(deps.session);
  if (!c) caches.set(deps.session, (c = new LowCapCache()));
  const s = deps.session.active();
  return c.get(s.id, s.client);
}

export function dustServiceOf(deps: Pick<HandlerDeps, 'approvals' | 'session'>): DustService {
  const s = deps.session.active();
  return new DustService({
    clientOf: (account) => (account === 'main' ? s.client : s.subKeys.client(account)),
    subAccounts: () => s.subKeys.uids(),
    batch: () => {
      if (!deps.approvals) throw new InputError([], 'This desk keeps no data folder, so it has no operators and converts nothing.');
      return deps.approvals;
    },
    intent: (id) => s.journal?.intent(id),
    unfinished: () => s.journal?.unfinished('small_balance_convert') ?? [],
    lowCap: async () => (await lowCapOf(deps)).currencies,
  });
}

export const dustHandlers: Pick<Handlers, DustChannels> = {
  dustList: async (_req, deps) => dustServiceOf(deps).list(),
  dustReview: async (req, deps) => dustServiceOf(deps).review(req.rows),
  dustConvert: async (req, deps) => dustServiceOf(deps).convert(req.rows),
  dustProgress: async (req, deps) => dustServiceOf(deps).progress(req.ref),
  dustHistory: async (req, deps) => dustServiceOf(deps).history(req),
  dustHistoryCsv: async (req, deps) => dustServiceOf(deps).historyCsv(req),
  lowCapCurrencies: async (_req, deps) => lowCapOf(deps),
};
