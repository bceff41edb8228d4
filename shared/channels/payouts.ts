import { z } from 'zod';
import { CsvExport } from '../csvExport.ts';
import { PayoutBatchItem, PayoutFile, PayoutProgress, PayoutQueueRequest, PayoutQueued, PayoutReview } from '../payouts.ts';

// Payout files: read and checked in the core, drafted as one batch, followed through the journal.

export const payoutsChannels = {
  /**
   * Reads a payout file (its exact bytes, checked and hashed in the core) and checks every row as the
   * withdraw form checks one; the valid rows are reviewed as one batch under the policy. Nothing is stored.
   */
  payoutsImport: {
    request: PayoutFile,
    response: PayoutReview,
  },
  /** Drafts the reviewed file's valid rows as one batch; operators approve it in the confirmation window. */
  payoutsQueue: {
    request: PayoutQueueRequest,
    response: PayoutQueued,
  },
  /** Where each row of a payout batch stands, from the journal. */
  payoutsProgress: {
    request: z.object({ ref: z.string().min(1).max(64) }).strict(),
    response: PayoutProgress,
  },
  /** The profile's payout batches not archived, newest first: they stay listed across navigation and restarts. */
  payoutsBatches: {
    request: z.object({}).strict(),
    response: z.array(PayoutBatchItem),
  },
  /** Takes a finished batch off the list; its journal, approvals and report are kept. */
  payoutsArchive: {
    request: z.object({ ref: z.string().min(1).max(64) }).strict(),
    response: z.object({ archived: z.literal(true) }),
  },
  /** The batch's report (sent, refused with the label's sentence, skipped) as CSV text. */
  payoutsReport: {
    request: z.object({ ref: z.string().min(1).max(64) }).strict(),
    response: CsvExport,
  },
} as const;
