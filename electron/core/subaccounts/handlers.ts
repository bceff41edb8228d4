import type { Handlers } from '../handlerDeps.ts';
import { needSubAccounts } from '../handlerGuards.ts';

type SubAccountChannels =
  'subAccountsManaged' | 'subAccountKeys' | 'subAccountIncident' | 'subAccountIncidentDraft' | 'subAccountIncidentRuns';

export const subAccountHandlers: Pick<Handlers, SubAccountChannels> = {
  subAccountsManaged: async (_req, deps) => needSubAccounts(deps).managed(),
  subAccountKeys: async (req, deps) => needSubAccounts(deps).keys(req.user_id),
  subAccountIncident: async (req, deps) => needSubAccounts(deps).incident(req.user_id),
  subAccountIncidentDraft: async (req, deps) => needSubAccounts(deps).draftIncident(req.user_id),
  subAccountIncidentRuns: async (req, deps) => needSubAccounts(deps).runsOf(req.user_id),
};
