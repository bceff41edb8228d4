import { z } from 'zod';
import { WRITE_KINDS } from './api/writes.ts';

// Sub-account management and the incident page as the window sees them: the sub-accounts with their
// lock state, their keys (never a secret: the window only learns that the desk holds a key), and one
// sub-account's incident picture with the reviewed sequence that contains it.

const Uid = z.string().regex(/^\d{1,18}$/, 'a sub-account user id (digits)');
export const UidRequest = z.object({ user_id: Uid }).strict();

export const ManagedSubAccount = z.object({
  user_id: z.string(),
  login_name: z.string(),
  remark: z.string(),
  locked: z.boolean(),
  /** The masked key this desk signs the sub-account's own requests with, or null when it holds none. */
  desk_key: z.string().nullable(),
});
export type ManagedSubAccount = z.infer<typeof ManagedSubAccount>;

export const ManagedKey = z.object({
  name: z.string().nullable(),
  /** The access key (it signs nothing without its secret, which stays with the exchange or the vault). */
  key: z.string(),
  key_masked: z.string(),
  perms: z.array(z.object({ name: z.string(), read_only: z.boolean() })),
  ip_whitelist: z.array(z.string()),
  /** Unix seconds, as the exchange gave them; null when it did not. */
  created_at: z.number().nullable(),
  last_access: z.number().nullable(),
  /** SubAccountKey.state in words: normal, locked or frozen (or the number as it came). */
  state: z.string(),
  /** This desk holds the key's secret and signs the sub-account's own requests with it. */
  desk_signs: z.boolean(),
  /** When this desk last saw the key in the exchange's list (ms), or last signed with it. */
  seen_by_desk_at: z.number(),
});
export type ManagedKey = z.infer<typeof ManagedKey>;

export const IncidentStep = z.object({
  kind: z.enum(WRITE_KINDS),
  summary: z.string(),
});

export const IncidentView = z.object({
  user_id: z.string(),
  login_name: z.string(),
  locked: z.boolean(),
  desk_key: z.string().nullable(),
  balances: z.array(z.object({ currency: z.string(), available: z.string(), locked: z.string() })),
  /** null: the desk cannot read them (it holds no key for the sub-account); `unread` says why. */
  open_orders: z
    .array(z.object({ id: z.string(), currency_pair: z.string(), side: z.string(), amount: z.string(), price: z.string() }))
    .nullable(),
  withdrawals: z
    .array(z.object({ id: z.string(), currency: z.string(), amount: z.string(), address: z.string(), status: z.string() }))
    .nullable(),
  transfers: z.array(
    z.object({ timest: z.number(), currency: z.string(), amount: z.string(), direction: z.enum(['to', 'from']), status: z.string() }),
  ),
  unread: z.string().nullable(),
  /** The sequence a single confirmation would approve, in the order it runs. */
  steps: z.array(IncidentStep),
});
export type IncidentView = z.infer<typeof IncidentView>;

export const INCIDENT_STEP_STATES = ['pending', 'running', 'done', 'failed', 'needs_attention', 'skipped'] as const;

export const IncidentRun = z.object({
  ref: z.string(),
  user_id: z.string(),
  drafted_at: z.number(),
  /** to_sign: its draft waits in the confirmation window; then the governance record's state, or the runner's. */
  state: z.enum(['to_sign', 'waiting', 'running', 'held', 'finished', 'rejected', 'expired']),
  held: z.string().nullable(),
  steps: z.array(IncidentStep.extend({ ref: z.string(), state: z.enum(INCIDENT_STEP_STATES), reason: z.string() })),
});
export type IncidentRun = z.infer<typeof IncidentRun>;
