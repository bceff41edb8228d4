import { z } from 'zod';
import { WRITE_KINDS } from './writes.ts';

// The approval policy as data: rules evaluated in order, the first that matches decides. It is part
// of the contract because the renderer shows it and the review step shows its verdict rule by rule.

export type WriteKind = (typeof WRITE_KINDS)[number];

export const DESTINATIONS = ['verified_saved', 'address_book', 'unknown'] as const;
export type Destination = (typeof DESTINATIONS)[number];

/** A threshold: zero or more, at most 20 integer digits and 8 decimals. */
const Threshold = z
  .string()
  .regex(/^(0|[1-9]\d{0,19})(\.\d{1,8})?$/, 'a threshold is a plain decimal number such as 10000 (at most 8 decimals)');

export const RuleMatch = z.strictObject({
  kinds: z.array(z.enum(WRITE_KINDS)).min(1).optional(),
  currencies: z.array(z.string().trim().min(1).max(32)).min(1).optional(),
  /** In the write's own currency. */
  amount_at_least: Threshold.optional(),
  /** Valued in USDT from spot tickers; without a valuation the rule fails closed. */
  usdt_at_least: Threshold.optional(),
  /** Where the money goes: on the exchange's verified saved addresses, on the desk's address book, or neither. */
  destinations: z.array(z.enum(DESTINATIONS)).min(1).optional(),
  /** Matches when the currency's rolling 24-hour outflow, this write included, reaches this amount. */
  velocity_24h_at_least: Threshold.optional(),
});
export type RuleMatch = z.infer<typeof RuleMatch>;

export const Rule = z
  .strictObject({
    id: z.string().trim().min(1).max(64),
    match: RuleMatch,
    action: z.enum(['allow', 'require', 'block']),
    /** For "require": how many distinct operators must approve. */
    approvals: z.number().int().min(1).max(10).optional(),
    /** For "require": whether the drafter's own approval counts (the default policy lets a lone operator confirm). */
    drafter_may_approve: z.boolean().optional(),
  })
  .refine((r) => r.action !== 'require' || r.approvals !== undefined, { message: 'a "require" rule says how many approvals' });
export type Rule = z.infer<typeof Rule>;

/** A request or batch not approved within this many hours of its draft expires, unless the policy says otherwise. */
export const DEFAULT_REQUEST_EXPIRY_HOURS = 72;

export const Policy = z.strictObject({
  rules: z.array(Rule).min(1).max(100),
  /** Hours a request or batch may wait for its approvals; then it expires, is never sent, and is drafted again if still wanted. */
  request_expiry_hours: z.number().int().min(1).max(720).optional(),
});
export type Policy = z.infer<typeof Policy>;

/**
 * Until an operator changes it: money leaving for a destination on no list is blocked, whether a
 * withdrawal to an address or a UID transfer to another account (the desk keeps no list of accounts, so
 * every UID transfer is to an unknown one until a policy allows it: one approval must not move money
 * that an unknown address could not receive); cancelling spot
 * orders needs no confirmation (it moves no money, and an operator must be able to pull orders at once);
 * every other write needs one signed confirmation.
 */
export const DEFAULT_POLICY: Policy = {
  rules: [
    { id: 'cancels-free', match: { kinds: ['spot_cancel', 'spot_cancel_all'] }, action: 'allow' },
    { id: 'unknown-destination', match: { kinds: ['withdrawal', 'uid_transfer'], destinations: ['unknown'] }, action: 'block' },
    { id: 'confirm-every-write', match: {}, action: 'require', approvals: 1, drafter_may_approve: true },
  ],
};

/**
 * What the desk knew around a write when it judged it, signed with the request so that every desk can
 * judge it again under a later policy: the currency and amount the policy weighs (a spot order's
 * notional in its quote currency), the destination's list and the USDT valuation. Velocity is not here:
 * it is recomputed from the records at each signature.
 */
export const WriteFacts = z.strictObject({
  currency: z.string().min(1).max(32),
  amount: z.string().min(1).max(64),
  destination: z.enum(DESTINATIONS).nullable(),
  usdt_price: z.string().max(64).nullable(),
});
export type WriteFacts = z.infer<typeof WriteFacts>;

export const RuleVerdict = z.object({
  rule: z.string(),
  matched: z.boolean(),
  /** Why it matched or not, condition by condition, in words. */
  why: z.array(z.string()),
});
export type RuleVerdict = z.infer<typeof RuleVerdict>;

export const Verdict = z.object({
  decision: z.enum(['allow', 'require', 'block']),
  /** The rule that decided; null when none matched (then the write is blocked: no rule, no money). */
  rule: z.string().nullable(),
  approvals: z.number().int().nonnegative(),
  drafter_may_approve: z.boolean(),
  rules: z.array(RuleVerdict),
});
export type Verdict = z.infer<typeof Verdict>;

/**
 * The quorum that operator, role and policy changes need under a policy: that of its strictest rule, at
 * least one. The desk's change quorum is the largest of its profiles' (governance/quorum.ts deskQuorum).
 */
export function changeQuorum(policy: Pick<Policy, 'rules'>): number {
  return Math.max(1, ...policy.rules.map((r) => (r.action === 'require' ? (r.approvals ?? 1) : 1)));
}

/**
 * What judged a request, batch or change at the moment it was decided (its quorum reached, or its
 * rejection), as the record that decided it carries it: a later policy never relabels it. `policy` is the
 * ref of the policy change then in force for `profile` (null: the default policy), `version` how many
 * policy changes of that profile had taken effect by then; `rule` the rule that set the quorum (null: none
 * did); `quorum` the distinct approvals it needed then (null: the policy then blocked it).
 */
export const Decision = z.strictObject({
  profile: z.string().max(64).nullable(),
  policy: z.string().max(64).nullable(),
  version: z.number().int().nonnegative(),
  rule: z.string().max(200).nullable(),
  quorum: z.number().int().nonnegative().nullable(),
});
export type Decision = z.infer<typeof Decision>;
