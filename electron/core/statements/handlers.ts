import type { HandlerDeps, Handlers } from '../handlerDeps.ts';
import type { ActiveSession } from '../session.ts';
import { StatementService } from './service.ts';

// The statement channels of the active profile: one service per profile session, so that a statement
// built under one profile is never exported under another.

type StatementChannels =
  | 'statementAccounts'
  | 'statementBuild'
  | 'statementBuildEvery'
  | 'statementGet'
  | 'statementProgress'
  | 'statementCancel'
  | 'statementIssue'
  | 'statementVerify';

const services = new WeakMap<ActiveSession, StatementService>();

function serviceOf(deps: HandlerDeps): StatementService {
  const s = deps.session.active();
  let svc = services.get(s);
  if (!svc)
    services.set(
      s,
      (svc = new StatementService({
        clientOf: (account) => (account === 'main' ? s.client : s.subKeys.client(account)),
        subAccounts: () => ({ withKey: s.subKeys.uids(), known: [] }),
        history: () => deps.history.of(s).db,
        journal: () => s.journal,
        now: () => Date.now(),
      })),
    );
  return svc;
}

export const statementHandlers: Pick<Handlers, StatementChannels> = {
  statementAccounts: async (_req, deps) => serviceOf(deps).accounts(),
  statementBuild: async (req, deps) => serviceOf(deps).build(req),
  statementBuildEvery: async (req, deps) => serviceOf(deps).buildEvery(req),
  statementGet: async (req, deps) => serviceOf(deps).get(req.id),
  statementProgress: async (_req, deps) => serviceOf(deps).status(),
  statementCancel: async (_req, deps) => {
    serviceOf(deps).cancel();
    return {};
  },
  statementIssue: async (req, deps) =>
    serviceOf(deps).issue(req.id, req.format, `the desk of profile ${deps.session.active().profile.name}`),
  statementVerify: async (req, deps) => serviceOf(deps).verify(Buffer.from(req.content_base64, 'base64')),
};
