import type { Handlers } from '../handlerDeps.ts';
import { needRebalance } from '../handlerGuards.ts';

type RebalanceChannels =
  | 'rebalanceScope'
  | 'rebalancePlan'
  | 'rebalanceTemplates'
  | 'rebalanceTemplateSave'
  | 'rebalanceTemplateDelete'
  | 'rebalanceDraft'
  | 'rebalanceBatches'
  | 'rebalanceArchive'
  | 'rebalanceCancel'
  | 'rebalanceResume'
  | 'rebalanceReport';

export const rebalanceHandlers: Pick<Handlers, RebalanceChannels> = {
  rebalanceScope: async (req, deps) => needRebalance(deps).scope(req.currency),
  rebalancePlan: async (req, deps) => needRebalance(deps).plan(req),
  rebalanceTemplates: async (_req, deps) => needRebalance(deps).listTemplates(),
  rebalanceTemplateSave: async (req, deps) => needRebalance(deps).saveTemplate(req),
  rebalanceTemplateDelete: async (req, deps) => needRebalance(deps).deleteTemplate(req.name),
  rebalanceDraft: async (req, deps) => needRebalance(deps).draft(req.plan),
  rebalanceBatches: async (_req, deps) => needRebalance(deps).list(),
  rebalanceArchive: async (req, deps) => needRebalance(deps).archive(req.ref),
  rebalanceCancel: async (req, deps) => needRebalance(deps).cancel(req.ref, req.reason),
  rebalanceResume: async (req, deps) => needRebalance(deps).resume(req.ref),
  rebalanceReport: async (req, deps) => needRebalance(deps).report(req.ref),
};
