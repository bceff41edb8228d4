import { z } from 'zod';
import { AuditKey, AuditPage, AuditQuery, JournalExportAnswer, JournalExportRequest, JournalVerifyAnswer } from '../journal.ts';
import { WriteKind, WriteRequest } from '../api/writes.ts';

// Single writes as the journal proves them, and the journal itself (status, audit, export).

/** Where a write stands (electron/core/journal/intents.ts explains each state). */
export const IntentState = z.enum([
  'pending_approval',
  'approved',
  'in_flight',
  'unconfirmed',
  'accepted',
  'done',
  'refused',
  'needs_attention',
  'settled',
  'cancelled',
]);
export type IntentState = z.infer<typeof IntentState>;

/** A write as the journal proves it stands: the one declaration of the shape, used by the core's journal too. */
export const IntentView = z.object({
  id: z.string(),
  kind: WriteKind,
  client_id: z.string().nullable(),
  body: z.record(z.string(), z.union([z.string(), z.number(), z.boolean()])),
  /** The sub-account whose key signs it; absent when the profile's main key does. */
  signer: z.string().optional(),
  note: z.string().optional(),
  state: IntentState,
  created_at: z.number(),
  updated_at: z.number(),
  approved_by: z.string().optional(),
  /** Who drafted and who approved, each with the signature the journal holds. */
  signatures: z.array(z.object({ action: z.string(), operator: z.string(), name: z.string(), signature: z.string() })).optional(),
  attempts: z.number().int(),
  last_sent_at: z.number().optional(),
  /** The last attempt's deadline: aborted then, never sent after it. */
  deadline: z.number().optional(),
  /**
   * In doubt until then: an attempt may still reach the exchange, so an absent lookup proves nothing and
   * nobody sends it again (docs/failure-modes.md §In doubt). Absent once the doubt is settled.
   */
  doubt_until: z.number().optional(),
  /** Lookups after the doubt ended proved it absent: a send now is its first to land. */
  proven_absent: z.boolean().optional(),
  /** Extra exchange records under this write's id, with what the desk did about each. */
  duplicates: z
    .array(
      z.object({ exchange_id: z.string(), action: z.enum(['cancel_asked', 'left']), status: z.string().optional(), reason: z.string() }),
    )
    .optional(),
  /** Absent lookups since the last send: their span is what allows a resend. */
  absent_lookups: z.number().int(),
  first_absent_at: z.number().optional(),
  last_absent_at: z.number().optional(),
  exchange_id: z.string().optional(),
  status: z.string().optional(),
  label: z.string().optional(),
  reason: z.string().optional(),
});
export type IntentView = z.infer<typeof IntentView>;

const IntentId = z.object({ id: z.string().min(1).max(64) }).strict();

export const JournalState = z.object({
  state: z.enum(['ok', 'damaged', 'none']),
  damage: z.object({ reason: z.string(), entry: z.number().int().nullable(), missing: z.number().int().nonnegative() }).nullable(),
  /** A last line cut short by a crash, cut at open and kept in a file: nothing was sent on its strength. */
  recovered: z.object({ line: z.number().int(), bytes: z.number().int(), saved_to: z.string() }).nullable(),
});
export type JournalState = z.infer<typeof JournalState>;

/**
 * A keyset cursor into a list sorted newest first: the last row of the page before. Never an offset:
 * rows arrive while the operator scrolls, and an offset would skip or repeat them.
 */
export const IntentCursor = z.object({ created_at: z.number(), id: z.string().min(1).max(64) }).strict();
export type IntentCursor = z.infer<typeof IntentCursor>;

export const IntentPage = z.object({
  items: z.array(IntentView),
  /** Where the next (older) page starts; null on the last page. */
  next: IntentCursor.nullable(),
});
export type IntentPage = z.infer<typeof IntentPage>;

export const writesChannels = {
  /** Journals a write for review; nothing is sent until it is approved. */
  writePrepare: {
    request: z.object({ write: WriteRequest, note: z.string().max(500).optional() }).strict(),
    response: IntentView,
  },
  /** The operator's confirmation: the write goes out, exactly once. Answers when the exchange has answered or the write is unconfirmed. */
  writeApprove: {
    request: IntentId,
    response: IntentView,
  },
  writeCancel: {
    request: z.object({ id: z.string().min(1).max(64), reason: z.string().trim().min(1).max(500) }).strict(),
    response: IntentView,
  },
  /** For a write the desk cannot prove: the operator says what happened, having checked the exchange. */
  writeSettle: {
    request: z
      .object({ id: z.string().min(1).max(64), outcome: z.enum(['done', 'not_done']), note: z.string().trim().min(1).max(500) })
      .strict(),
    response: IntentView,
  },
  /** One page of the journal, newest first, after the cursor (the first page without one). */
  intentsList: {
    request: z
      .object({
        unfinished_only: z.boolean().default(false),
        after: IntentCursor.optional(),
        limit: z.number().int().min(1).max(500).default(100),
      })
      .strict(),
    response: IntentPage,
  },
  /** Whether the active profile's journal verified, what is wrong when it did not, and any torn line cut at open. */
  journalStatus: {
    request: z.object({}).strict(),
    response: JournalState,
  },
  /** The operator has read the notice of a torn last line. */
  journalAcknowledgeRecovery: {
    request: z.object({}).strict(),
    response: JournalState,
  },
  /** Keeps a damaged journal as evidence and starts a new one; its unfinished writes come over as needing attention, never sent. */
  journalArchive: {
    request: z.object({}).strict(),
    response: z.object({ archived_to: z.string(), carried_over: z.number().int().nonnegative() }),
  },
  /** One page of the audit journal (the profile's and the governance journal's entries), filtered. */
  journalEntries: {
    request: AuditQuery,
    response: AuditPage,
  },
  /** Checks every MAC, every operator signature and the sealed heads; names the first entry that fails. */
  journalVerify: {
    request: z.object({}).strict(),
    response: JournalVerifyAnswer,
  },
  /** The entries as CSV, or as a bundle signed with the journal's audit key (npm run verify-journal checks it). */
  journalExport: {
    request: JournalExportRequest,
    response: JournalExportAnswer,
  },
  /** The keys the signed bundle is signed with, by fingerprint: the same figures `npm run verify-journal` prints. */
  journalAuditKeys: {
    request: z.object({}).strict(),
    response: z.array(AuditKey),
  },
} as const;
