import { z } from 'zod';
import { Decision, Verdict, WriteFacts } from './policy.ts';
import { WriteKind, WriteRequest } from './writes.ts';

// A batch of writes approved once: payouts from a file, or the transfers of a rebalance plan. The
// payload (canonical JSON) is what every operator signs, so approving the batch approves each row's
// exact wire body under the row's own id.

export const BATCH_KINDS = ['payouts', 'rebalance', 'small_balance', 'incident'] as const;
export type BatchKind = (typeof BATCH_KINDS)[number];

/** The most rows one batch may hold: a rebalance of the exchange's largest sub-account count with its hops. */
export const MAX_BATCH_ROWS = 2000;

const WireBody = z.record(z.string(), z.union([z.string(), z.number()]));

export const BatchRow = z.strictObject({
  /** The row's intent id in the profile's journal, and its client id where the endpoint has one. */
  ref: z.string().min(1).max(64),
  kind: WriteKind,
  body: WireBody,
  note: z.string().max(500).optional(),
  /** The sub-account whose own key signs the row (a move between its own accounts); absent: the main key. */
  signer: z
    .string()
    .regex(/^\d{1,18}$/)
    .optional(),
});
export type BatchRow = z.infer<typeof BatchRow>;

export const BatchTotal = z.strictObject({ currency: z.string(), amount: z.string(), fee: z.string().optional() });
export type BatchTotal = z.infer<typeof BatchTotal>;

export const BatchPayload = z.strictObject({
  batch: z.enum(BATCH_KINDS),
  title: z.string().min(1).max(200),
  /** Where the batch comes from: a payout file's name and SHA-256, a rebalance plan's id and currency. */
  source: z.record(z.string(), z.string().max(300)),
  rows: z.array(BatchRow).min(1).max(MAX_BATCH_ROWS),
  /** The strictest row's verdict: what the batch as a whole needs. */
  verdict: Verdict,
  totals: z.array(BatchTotal),
  /** Each row's facts, in row order, so that the quorum is recomputed under the policy in force at each signature. */
  facts: z.array(WriteFacts).optional(),
});
export type BatchPayload = z.infer<typeof BatchPayload>;

/** What a batch is made of, as the core is asked for it (rows are checked as single writes are). */
export const BatchWrite = z.strictObject({ write: WriteRequest, note: z.string().max(500).optional() });

export const BatchSpec = z.strictObject({
  batch: z.enum(BATCH_KINDS),
  title: z.string().trim().min(1).max(200),
  source: z.record(z.string().max(40), z.string().max(300)),
  writes: z.array(BatchWrite).min(1, 'a batch has at least one row').max(MAX_BATCH_ROWS),
});
export type BatchSpec = z.output<typeof BatchSpec>;

export const BatchRowReview = z.object({
  kind: WriteKind,
  body: WireBody,
  signer: z.string().optional(),
  verdict: Verdict,
  destination_note: z.string().nullable(),
});

export const BatchReview = z.object({
  rows: z.array(BatchRowReview),
  verdict: Verdict,
  totals: z.array(BatchTotal),
});
export type BatchReview = z.infer<typeof BatchReview>;

export const BatchStatus = z.object({
  ref: z.string(),
  state: z.enum(['waiting', 'approved', 'rejected', 'expired', 'sent']),
  payload: BatchPayload,
  approved_by: z.array(z.string()),
  needed: z.number().int(),
  /** What decided it, as recorded then (null: decided before decisions were recorded); absent while it waits. */
  decided: Decision.nullable().optional(),
});
export type BatchStatus = z.infer<typeof BatchStatus>;
