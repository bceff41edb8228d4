import type { ActiveSession, Session } from './session.ts';
import type { DeskApprovals } from './approvals/deskApprovals.ts';
import type { RebalanceService } from './rebalance/service.ts';
import type { SubAccountsService } from './subaccounts/service.ts';
import type { HandlerDeps } from './handlerDeps.ts';
import { InputError, JournalDamagedWritesError } from './errors.ts';

// The refusals several domains' handlers share, so that each says the same sentence whatever door it comes through.

export function writesOf(session: Session): {
  writes: NonNullable<ActiveSession['writes']>;
  journal: NonNullable<ActiveSession['journal']>;
} {
  const s = session.active();
  if (s.damage) throw new JournalDamagedWritesError(s.damage);
  if (!s.writes || !s.journal) throw new InputError([], 'This desk runs without a journal, so it sends no writes.');
  return { writes: s.writes, journal: s.journal };
}

export function needApprovals(deps: HandlerDeps): DeskApprovals {
  if (!deps.approvals) throw new InputError([], 'This desk keeps no data folder, so it has no operators and sends no writes.');
  return deps.approvals;
}

export function needRebalance(deps: HandlerDeps): RebalanceService {
  if (!deps.rebalance) throw new InputError([], 'This desk keeps no data folder, so it has no operators to approve a rebalance.');
  return deps.rebalance;
}

export function needSubAccounts(deps: HandlerDeps): SubAccountsService {
  if (!deps.subAccounts)
    throw new InputError([], 'This desk keeps no data folder, so it has no operators to approve sub-account management.');
  return deps.subAccounts;
}
