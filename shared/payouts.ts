import { z } from 'zod';
import { BatchStatus } from './api/batch.ts';
import { Verdict } from './api/policy.ts';

// Payouts from a file: the operator picks a CSV, the window sends its bytes, the core parses and checks
// every row (the window's own checks are never trusted), and the valid rows become one batch under the
// approval policy. These are the shapes that cross the IPC for it.

/** A payout file is a spreadsheet export, not a data dump: 1 MiB and 500 rows are far beyond a day's payouts. */
export const MAX_PAYOUT_FILE_BYTES = 1024 * 1024;
export const MAX_PAYOUT_ROWS = 500;

export const PAYOUT_COLUMNS = ['currency', 'chain', 'address', 'memo', 'amount', 'reference'] as const;
export const REQUIRED_PAYOUT_COLUMNS = ['currency', 'chain', 'address', 'amount'] as const;
export type PayoutField = (typeof PAYOUT_COLUMNS)[number];

/** The file as picked: its name and its exact bytes (base64), so that the core's SHA-256 is that of the file on disk. */
export const PayoutFile = z.strictObject({
  // The name is shown in the confirmation window and signed into the batch: no line breaks or other control characters.
  file: z
    .string()
    .trim()
    .min(1, 'the file has no name')
    .max(200, 'the file name is longer than 200 characters')
    .regex(/^[^\u0000-\u001f\u007f]+$/, 'the file name has a control character in it'),
  content_base64: z
    .string()
    .max(Math.ceil(MAX_PAYOUT_FILE_BYTES / 3) * 4, `the file is larger than ${MAX_PAYOUT_FILE_BYTES / 1024} KiB`)
    .regex(/^[A-Za-z0-9+/]*={0,2}$/, 'the file content must be base64'),
});

export const PayoutProblem = z.object({
  field: z.enum([...PAYOUT_COLUMNS, 'row']),
  message: z.string(),
});
export type PayoutProblem = z.infer<typeof PayoutProblem>;

export const PayoutRowView = z.object({
  /** The row's number among the data rows (1 is the first row under the header). */
  row: z.number().int().positive(),
  /** The line of the file it starts on, as a text editor counts. */
  line: z.number().int().positive(),
  currency: z.string(),
  chain: z.string(),
  address: z.string(),
  memo: z.string(),
  amount: z.string(),
  reference: z.string(),
  /** For a row whose amount checks: the fee the exchange takes and what arrives. */
  fee: z.string().nullable(),
  arrives: z.string().nullable(),
  problems: z.array(PayoutProblem),
  /** The earlier row with the same destination, amount and reference. */
  duplicate_of: z.number().int().positive().nullable(),
  /** The policy's verdict on this row alone within the batch (valid rows, once reviewed). */
  verdict: Verdict.nullable(),
  destination_note: z.string().nullable(),
});
export type PayoutRowView = z.infer<typeof PayoutRowView>;

export const PayoutTotal = z.object({ currency: z.string(), amount: z.string(), fee: z.string(), count: z.number().int() });
export type PayoutTotal = z.infer<typeof PayoutTotal>;

export const PayoutReview = z.object({
  file: z.string(),
  sha256: z.string(),
  bytes: z.number().int().nonnegative(),
  /** What is wrong with the file as a whole (no rows are read then). */
  file_problems: z.array(z.object({ line: z.number().int().nullable(), message: z.string() })),
  rows: z.array(PayoutRowView),
  /** Totals of the valid rows, per currency. */
  totals: z.array(PayoutTotal),
  /** The policy's verdict for the valid rows as one batch (velocity counts the whole batch); null when none is valid. */
  verdict: Verdict.nullable(),
  /** Why the batch could not be reviewed at all (a read-only key, a refused policy), or null. */
  batch_error: z.string().nullable(),
});
export type PayoutReview = z.infer<typeof PayoutReview>;

export const PayoutQueueRequest = PayoutFile.extend({
  /** The rows the operator reviewed as valid: the core refuses when its own checks now find others. */
  rows: z.array(z.number().int().positive()).min(1, 'no valid row to queue').max(MAX_PAYOUT_ROWS),
});

export const PayoutQueued = z.object({ ticket: z.string(), title: z.string(), ref: z.string(), rows: z.number().int() });

export const PAYOUT_OUTCOMES = ['pending', 'sent', 'refused', 'skipped'] as const;
export type PayoutOutcome = (typeof PAYOUT_OUTCOMES)[number];

export const PayoutProgressRow = z.object({
  ref: z.string(),
  /** The row of the file it came from, and its reference. */
  row: z.number().int().nullable(),
  reference: z.string(),
  currency: z.string(),
  chain: z.string(),
  address: z.string(),
  memo: z.string(),
  amount: z.string(),
  outcome: z.enum(PAYOUT_OUTCOMES),
  /** The journal's state of the row's write, or null before the dispatcher reached it. */
  state: z.string().nullable(),
  /** While the row's write is in doubt: when its doubt ends (docs/failure-modes.md §In doubt). */
  doubt_until: z.number().nullable().optional(),
  status: z.string().nullable(),
  exchange_id: z.string().nullable(),
  label: z.string().nullable(),
  /** The label's sentence (or the reason) for a refused or skipped row. */
  sentence: z.string().nullable(),
});
export type PayoutProgressRow = z.infer<typeof PayoutProgressRow>;

export const PayoutProgress = z.object({
  ref: z.string(),
  title: z.string(),
  file: z.string(),
  sha256: z.string(),
  /** drafted: waiting for its drafter's signature in the confirmation window; then as the approvals stand. */
  state: z.enum(['drafted', ...BatchStatus.shape.state.options]),
  approved_by: z.array(z.string()),
  needed: z.number().int(),
  rows: z.array(PayoutProgressRow),
  counts: z.object(
    Object.fromEntries(PAYOUT_OUTCOMES.map((o) => [o, z.number().int().nonnegative()])) as Record<PayoutOutcome, z.ZodNumber>,
  ),
});
export type PayoutProgress = z.infer<typeof PayoutProgress>;

/** A payout batch as its page lists it until the operator archives it: enough to tell it apart and reopen it. */
export const PayoutBatchItem = PayoutProgress.pick({ ref: true, title: true, file: true, state: true, counts: true }).extend({
  created_at: z.number(),
  rows: z.number().int().nonnegative(),
  totals: z.array(z.object({ currency: z.string(), amount: z.string(), fee: z.string().optional() })),
  /** Whether it may be archived now: nothing of it is left to send or to settle. */
  archivable: z.boolean(),
});
export type PayoutBatchItem = z.infer<typeof PayoutBatchItem>;
