import type { HandlerDeps, Handlers } from '../handlerDeps.ts';
import { InputError } from '../errors.ts';
import { needApprovals } from '../handlerGuards.ts';
import type { DeskApprovals } from '../approvals/deskApprovals.ts';
import type { TeamWiring } from './wiring.ts';

// The team store's channels. Its code (node-postgres) is loaded on first use, as lazyStore.ts does.

/** The approvals and the wiring of their team stores: the core makes both, or neither (no data folder). */
function approvalsOf(deps: { approvals: DeskApprovals | null; team: TeamWiring | null }): [DeskApprovals, TeamWiring] {
  if (!deps.approvals || !deps.team)
    throw new InputError([], 'This desk keeps no data folder, so it has no approvals to share with a team.');
  return [deps.approvals, deps.team];
}

const membership = () => import('./membership.ts');

/** Rehearsing a team across two desks (rehearsal.ts), made for each call from the core's parts. */
async function rehearsal(deps: HandlerDeps) {
  const [approvals, team] = approvalsOf(deps);
  if (!deps.sandbox) throw new InputError([], 'This desk keeps no data folder, so it cannot rehearse a team.');
  const { Rehearsal } = await import('./rehearsal.ts');
  return new Rehearsal({ ...deps.sandbox, session: deps.session, approvals, team });
}

export const teamHandlers: Pick<
  Handlers,
  'teamTest' | 'teamVerify' | 'teamStatus' | 'teamFound' | 'teamJoin' | 'teamLeave' | 'teamInvite' | 'teamJoinRehearsal'
> = {
  teamTest: async (req) => (await import('./connectionTest.ts')).testTeamStore(req.url, req.password),
  teamVerify: async (_req, deps) => needApprovals(deps).verifyTeam(),
  teamStatus: async (_req, deps) =>
    deps.approvals && deps.team ? (await membership()).teamStatus(deps.approvals, deps.team) : { domain: null, team: null },
  teamFound: async (req, deps) => (await membership()).foundTeam(...approvalsOf(deps), req),
  teamJoin: async (req, deps) => (await membership()).joinTeam(...approvalsOf(deps), req),
  teamLeave: async (_req, deps) => (await membership()).leaveTeam(...approvalsOf(deps)),
  teamInvite: async (_req, deps) => (await rehearsal(deps)).invite(),
  teamJoinRehearsal: async (req, deps) => (await rehearsal(deps)).join(req),
};
