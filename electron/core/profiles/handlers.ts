import type { Handlers } from '../handlerDeps.ts';

type ProfileChannels = 'profileCurrent' | 'profilesList' | 'profileSave' | 'profileRemove' | 'profileSelect' | 'profileSaveAuditor';

export const profileHandlers: Pick<Handlers, ProfileChannels> = {
  profileCurrent: async (_req, { session }) => session.activeSummary(),
  profilesList: async (_req, { session }) => ({ active_id: session.activeId(), profiles: session.list() }),
  profileSave: async (req, { session }) => session.save(req),
  profileRemove: async (req, { session }) => {
    session.remove(req.id);
    return { removed: true as const };
  },
  profileSelect: async (req, { session }) => session.select(req.id),
  profileSaveAuditor: async (req, { session }) => session.saveAuditor(req),
};
