import type { Handlers, HandlerDeps } from '../handlerDeps.ts';
import { InputError } from '../errors.ts';
import type { BatchArchive } from '../store/batchArchive.ts';
import { PayoutService } from './service.ts';

// The payout channels: the file is read, checked and reviewed in the core, drafted through the batch
// approvals, and followed through the active profile's journal.

type PayoutChannels = 'payoutsImport' | 'payoutsQueue' | 'payoutsProgress' | 'payoutsBatches' | 'payoutsArchive' | 'payoutsReport';

function archiveOf(deps: Pick<HandlerDeps, 'archive'>): BatchArchive {
  if (!deps.archive) throw new InputError([], 'This desk keeps no data folder, so it has no payout batches.');
  return deps.archive;
}

export function serviceOf(deps: Pick<HandlerDeps, 'approvals' | 'call' | 'session'>): PayoutService {
  const approvals = deps.approvals;
  if (!approvals) throw new InputError([], 'This desk keeps no data folder, so it has no operators and sends no payouts.');
  return new PayoutService({
    call: deps.call,
    batch: () => approvals,
    intent: (id) => deps.session.active().journal?.intent(id),
  });
}

export const payoutHandlers: Pick<Handlers, PayoutChannels> = {
  payoutsImport: async (req, deps) => serviceOf(deps).review(req),
  payoutsQueue: async (req, deps) => serviceOf(deps).queue(req),
  payoutsProgress: async (req, deps) => serviceOf(deps).progress(req.ref),
  payoutsBatches: async (_req, deps) => serviceOf(deps).list(archiveOf(deps).archived(deps.session.active().id, 'payouts')),
  payoutsArchive: async (req, deps) => {
    await serviceOf(deps).archivable(req.ref);
    archiveOf(deps).archive(deps.session.active().id, 'payouts', req.ref, Date.now());
    return { archived: true as const };
  },
  payoutsReport: async (req, deps) => serviceOf(deps).report(req.ref),
};
