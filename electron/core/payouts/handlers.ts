import type { Handlers, HandlerDeps } from '../handlerDeps.ts';
import { InputError } from '../errors.ts';
import { PayoutService } from './service.ts';

// The payout channels: the file is read, checked and reviewed in the core, drafted through the batch
// approvals, and followed through the active profile's journal.

type PayoutChannels = 'payoutsImport' | 'payoutsQueue' | 'payoutsProgress' | 'payoutsReport';

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
  payoutsReport: async (req, deps) => serviceOf(deps).report(req.ref),
};
