import type { Handlers } from '../handlerDeps.ts';
import { InputError } from '../errors.ts';
import { needApprovals } from '../handlerGuards.ts';
import type { DeskApprovals } from '../approvals/deskApprovals.ts';

// The team store's channels. Its code (node-postgres) is loaded on first use, as lazyStore.ts does.

function approvalsOf(a: DeskApprovals | null): DeskApprovals {
  if (!a) throw new InputError([], 'This desk keeps no data folder, so it has no approvals to share with a team.');
  return a;
}

const membership = () => import('../approvals/teamMembership.ts');

export const teamHandlers: Pick<Handlers, 'teamTest' | 'teamVerify' | 'teamStatus' | 'teamFound' | 'teamJoin' | 'teamLeave'> = {
  teamTest: async (req) => (await import('./connectionTest.ts')).testTeamStore(req.url, req.password),
  teamVerify: async (_req, deps) => needApprovals(deps).verifyTeam(),
  teamStatus: async (_req, deps) => (deps.approvals ? (await membership()).teamStatus(deps.approvals) : { domain: null, team: null }),
  teamFound: async (req, deps) => (await membership()).foundTeam(approvalsOf(deps.approvals), req),
  teamJoin: async (req, deps) => (await membership()).joinTeam(approvalsOf(deps.approvals), req),
  teamLeave: async (_req, deps) => (await membership()).leaveTeam(approvalsOf(deps.approvals)),
};
