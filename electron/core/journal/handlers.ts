import { InputError } from '../errors.ts';
import type { HandlerDeps, Handlers } from '../handlerDeps.ts';
import { auditExport, auditKeys, auditPage, auditVerify, type AuditSources } from './auditHandlers.ts';

type JournalChannels =
  | 'journalStatus'
  | 'journalAcknowledgeRecovery'
  | 'journalArchive'
  | 'journalEntries'
  | 'journalVerify'
  | 'journalExport'
  | 'journalAuditKeys';

function auditSources(deps: HandlerDeps): AuditSources {
  const profile = deps.session.auditSource();
  if (!profile && !deps.approvals) throw new InputError([], 'This desk keeps no data folder, so it has no journal.');
  return { profile, governance: deps.approvals?.auditSource() ?? null };
}

export const journalHandlers: Pick<Handlers, JournalChannels> = {
  journalStatus: async (_req, { session }) => session.journalState(),
  journalAcknowledgeRecovery: async (_req, { session }) => session.acknowledgeRecovery(),
  journalArchive: async (_req, { session }) => session.archiveDamagedJournal(),
  journalEntries: async (req, deps) => auditPage(auditSources(deps), req),
  journalVerify: async (_req, deps) => auditVerify(auditSources(deps)),
  journalExport: async ({ format, ...filters }, deps) => auditExport(auditSources(deps), format, new Date(), filters),
  journalAuditKeys: async (_req, deps) => auditKeys(auditSources(deps)),
};
