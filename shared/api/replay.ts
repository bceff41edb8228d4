import { z } from 'zod';

// "What would this policy have done": a proposed policy replayed against the last 30 days of the
// profile's requests (as signed, with the facts the desk knew) and the exchange's withdrawals the desk
// did not send, beside what the policy in force says of the same requests.

export const REPLAY_DAYS = 30;

const Decision = z.object({
  decision: z.enum(['allow', 'require', 'block']),
  rule: z.string().nullable(),
  approvals: z.number().int(),
});

export const PolicyReplay = z.object({
  from: z.number(),
  to: z.number(),
  /** Requests replayed: the desk's own (signed, with their facts) and the exchange's withdrawals the desk did not send. */
  counted: z.object({ desk: z.number().int(), exchange: z.number().int() }),
  /** Per rule of the proposal, in its order (then "no rule"): how many requests it would have decided, and how. */
  rules: z.array(
    z.object({
      rule: z.string().nullable(),
      allowed: z.number().int(),
      /** Held for approvals: how many, by the number of approvals asked. */
      held: z.number().int(),
      blocked: z.number().int(),
    }),
  ),
  /** Requests whose verdict the proposal changes against the policy in force, newest first (at most 100). */
  changed: z.array(
    z.object({
      at: z.number(),
      source: z.enum(['desk', 'exchange']),
      summary: z.string(),
      before: Decision,
      after: Decision,
    }),
  ),
  changed_total: z.number().int(),
});
export type PolicyReplay = z.infer<typeof PolicyReplay>;
export type ReplayDecision = z.infer<typeof Decision>;
