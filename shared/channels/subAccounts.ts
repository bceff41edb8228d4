import { z } from 'zod';
import { IncidentRun, IncidentView, ManagedKey, ManagedSubAccount, UidRequest } from '../incident.ts';

// Sub-account management (docs/sub-accounts.md). Each act (lock, unlock, a key made or disabled, a sub-account made)
// is drafted through approvalsDraft like any write; these channels read, and draft the incident sequence.

export const subAccountsChannels = {
  /** GET /sub_accounts with each one's lock state and whether this desk holds its key. */
  subAccountsManaged: { request: z.object({}).strict(), response: z.array(ManagedSubAccount) },
  /** A sub-account's keys as the exchange lists them. */
  subAccountKeys: { request: UidRequest, response: z.array(ManagedKey) },
  /** One sub-account's incident picture and the containment sequence a single confirmation would approve. */
  subAccountIncident: { request: UidRequest, response: IncidentView },
  /** Drafts that sequence as one batch for the confirmation window. */
  subAccountIncidentDraft: {
    request: UidRequest,
    response: z.object({ ticket: z.string(), title: z.string(), ref: z.string() }),
  },
  /** The sub-account's incident sequences, newest first, each step's progress from the journal. */
  subAccountIncidentRuns: { request: UidRequest, response: z.array(IncidentRun) },
} as const;
