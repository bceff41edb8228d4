import { z } from 'zod';

// The audit journal as the Journal page reads it: entries of the active profile's journal and of the
// desk's governance journal, one keyset page at a time, and what Verify found.

export const JournalName = z.enum(['profile', 'governance']);

export const AuditEntry = z.object({
  journal: JournalName,
  seq: z.number().int().positive(),
  at: z.string(),
  type: z.string(),
  intent: z.string().nullable(),
  operators: z.array(z.string()),
  summary: z.string(),
  mac: z.string(),
});
export type AuditEntry = z.infer<typeof AuditEntry>;

/** Where the last page ended: entries are ordered newest first, then governance before profile, then by number. */
export const AuditCursor = z.object({ at: z.string().max(40), journal: JournalName, seq: z.number().int().positive() }).strict();
export type AuditCursor = z.infer<typeof AuditCursor>;

const Day = z.string().regex(/^\d{4}-\d{2}-\d{2}$/, 'a date is YYYY-MM-DD');

export const AuditQuery = z
  .object({
    type: z.string().max(40).optional(),
    /** Part of an operator's name (named `by`: no main-window channel names an operator field, see approvals/channels.sandbox.test.ts). */
    by: z.string().max(64).optional(),
    /** Days in UTC, both included. */
    from: Day.optional(),
    to: Day.optional(),
    intent: z.string().max(64).optional(),
    after: AuditCursor.optional(),
    limit: z.number().int().min(1).max(500).default(100),
  })
  .strict();
export type AuditQuery = z.infer<typeof AuditQuery>;

/** The filters of the Journal page, as a list and an export read them. */
export const AuditFilters = AuditQuery.omit({ after: true, limit: true });
export type AuditFilters = z.infer<typeof AuditFilters>;

/**
 * An export: the CSV holds the entries the filters show (none: every entry); the signed bundle always
 * holds whole journals, since a verifier checks each entry against the one before it.
 */
export const JournalExportRequest = AuditFilters.extend({ format: z.enum(['csv', 'bundle']) }).superRefine((r, ctx) => {
  if (r.format === 'bundle' && Object.keys(r).some((k) => k !== 'format'))
    ctx.addIssue({ code: 'custom', path: ['format'], message: 'a signed bundle holds whole journals: filters apply to the CSV only' });
});

export const AuditPage = z.object({ items: z.array(AuditEntry), next: AuditCursor.nullable() });
export type AuditPage = z.infer<typeof AuditPage>;

export const AuditResult = z.object({
  journal: JournalName,
  entries: z.number().int().nonnegative(),
  head_seq: z.number().int().nonnegative(),
  ok: z.boolean(),
  entry: z.number().int().nullable(),
  reason: z.string().nullable(),
  missing: z.number().int().nonnegative(),
  torn: z.object({ line: z.number().int(), bytes: z.number().int() }).nullable(),
});
export type AuditResult = z.infer<typeof AuditResult>;

/** `verified` rather than `ok`: an answer shaped like a Reply would be read as one. */
export const JournalVerifyAnswer = z.object({ verified: z.boolean(), journals: z.array(AuditResult) });
export type JournalVerifyAnswer = z.infer<typeof JournalVerifyAnswer>;

/** The Ed25519 key a journal's section of the signed bundle is signed with, by fingerprint. */
export const AuditKey = z.object({ journal: JournalName, id: z.string(), fingerprint: z.string() });
export type AuditKey = z.infer<typeof AuditKey>;

export const JournalExportAnswer = z.object({ filename: z.string(), text: z.string(), entries: z.number().int() });

/** Every kind of entry the two journals hold, named as the Journal page's filter offers them. */
export const ENTRY_TYPE_NAMES: Readonly<Record<string, string>> = {
  intent: 'Draft (intent)',
  approval: 'Approval',
  cancelled: 'Cancelled',
  sent: 'Sent',
  unconfirmed: 'Unconfirmed',
  lookup: 'Lookup',
  retry: 'Retry',
  result: 'Result',
  status: 'Status',
  needs_attention: 'Needs attention',
  settled: 'Settled',
  operator_created: 'First operator',
  proposal: 'Request or change drafted',
  signoff: 'Operator approval',
  rejection: 'Rejection',
  freeze: 'Freeze',
  dispatched: 'Handed to the profile',
  statement_issued: 'Statement issued',
};
