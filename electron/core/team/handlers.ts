import type { Handlers } from '../handlerDeps.ts';
import { needApprovals } from '../handlerGuards.ts';

// The team store's channels. Its code (node-postgres) is loaded on first use, as lazyStore.ts does.

export const teamHandlers: Pick<Handlers, 'teamTest' | 'teamVerify'> = {
  teamTest: async (req) => (await import('./connectionTest.ts')).testTeamStore(req.url, req.password),
  teamVerify: async (_req, deps) => needApprovals(deps).verifyTeam(),
};
