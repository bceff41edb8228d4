import { z } from 'zod';

// The rebalance channels' shapes (docs/rebalance.md): what is in scope, targets, the plan as the core computed it
// from balances it read itself (never from figures the window sends), named templates, and the batch's
// progress and report.

const Units = /^(0|[1-9]\d{0,19})(\.\d{1,8})?$/;
const Amount = z.string().regex(Units, 'a plain decimal number of at most 8 decimal places, such as 125.5');
const Currency = z.string().regex(/^[A-Z0-9]{1,16}$/, 'a currency is capital letters and digits, such as USDT');

export const RebalanceKind = z.enum(['spot', 'margin', 'cross_margin', 'futures', 'delivery', 'options']);
export const AccountRef = z
  .object({
    owner: z.string().regex(/^(main|\d{1,20})$/, "an account's owner is 'main' or a sub-account's uid"),
    kind: RebalanceKind,
    pair: z
      .string()
      .regex(/^[A-Z0-9]{1,16}_[A-Z0-9]{1,16}$/, 'a currency pair such as BTC_USDT')
      .optional(),
  })
  .strict();
export type AccountRef = z.infer<typeof AccountRef>;

export const Target = z.discriminatedUnion('type', [
  z.object({ type: z.literal('amount'), amount: Amount }).strict(),
  /** A decimal ("0.25") or a fraction ("1/3") of the total in scope. */
  z
    .object({
      type: z.literal('share'),
      share: z
        .string()
        .regex(/^((0|1)(\.\d{1,18})?|[1-9]\d{0,17}\/[1-9]\d{0,17})$/, 'a share is a decimal from 0 to 1 or a fraction such as 1/3'),
    })
    .strict(),
  z.object({ type: z.literal('band'), floor: Amount.optional(), ceiling: Amount.optional() }).strict(),
  /** Ends with whatever the other targets leave: at most one account of a plan. */
  z.object({ type: z.literal('remainder') }).strict(),
]);
export type Target = z.infer<typeof Target>;

export const ScopeAccount = z.object({
  account: AccountRef,
  /** The sub-account's name ('' for the main account or when the exchange gave none). */
  name: z.string(),
  /** What can be moved now (`available`), read fresh. */
  balance: z.string(),
  /** Whether a plan may move money in or out of it; `why` says what stands in the way. */
  reachable: z.boolean(),
  why: z.string().nullable(),
});
export type ScopeAccount = z.infer<typeof ScopeAccount>;

export const RebalanceScope = z.object({ currency: z.string(), read_at: z.number(), accounts: z.array(ScopeAccount) });
export type RebalanceScope = z.infer<typeof RebalanceScope>;

export const TargetLine = z.object({ account: AccountRef, target: Target }).strict();
export type TargetLine = z.infer<typeof TargetLine>;

export const Preset = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('equalize') }).strict(),
  /** Every sub-account keeps at most `ceiling`; the rest goes to the main account's spot account. */
  z.object({ kind: z.literal('sweep'), ceiling: Amount }).strict(),
]);
export type Preset = z.infer<typeof Preset>;

export const PlanRequest = z
  .object({
    currency: Currency,
    /** Either targets, one per account, or a preset over these accounts. */
    lines: z.array(TargetLine).max(2000).optional(),
    preset: Preset.optional(),
    accounts: z.array(AccountRef).max(2000).optional(),
  })
  .strict()
  .superRefine((r, ctx) => {
    if (r.preset ? !r.accounts?.length : !r.lines?.length) {
      ctx.addIssue({
        code: 'custom',
        path: [r.preset ? 'accounts' : 'lines'],
        message: r.preset ? 'a preset needs the accounts in scope' : 'choose at least one account and its target',
      });
    }
    const rest = (r.lines ?? []).filter((l) => l.target.type === 'remainder').length;
    if (rest > 1) ctx.addIssue({ code: 'custom', path: ['lines'], message: TWO_REMAINDERS(rest) });
  });

/** The one problem a second "takes the remainder" has: the planner could not tell which account ends with what. */
export const TWO_REMAINDERS = (n: number): string =>
  `${n} accounts are set to take the remainder: only one can, so choose which and give the others a target`;

const PlanLeg = z.object({ endpoint: z.string(), signer: z.string(), from: AccountRef, to: AccountRef, amount: z.string() });
export const RebalancePlan = z.object({
  /** The id a draft names; the plan is kept in the core, computed from balances it read. */
  id: z.string(),
  read_at: z.number(),
  currency: z.string(),
  total: z.string(),
  transfers: z.array(z.object({ from: AccountRef, to: AccountRef, amount: z.string(), legs: z.array(PlanLeg) })),
  accounts: z.array(z.object({ account: AccountRef, target: Target, before: z.string(), after: z.string() })),
  moved: z.string(),
  bound: z.number().int(),
  requests: z.number().int(),
  extraHops: z.number().int(),
  remainder: z.string(),
  unreachable: z.array(z.object({ account: AccountRef, problem: z.enum(['short', 'over']), by: z.string() })),
  expectedSeconds: z.number(),
});
export type RebalancePlan = z.infer<typeof RebalancePlan>;

export const Template = z
  .object({
    name: z.string().trim().min(1, 'a template needs a name').max(64),
    currency: Currency,
    lines: z.array(TargetLine).min(1).max(2000),
  })
  .strict();
export type Template = z.infer<typeof Template>;

export const RowState = z.enum(['done', 'failed', 'skipped', 'needs_attention', 'pending']);
export const ReportRow = z.object({
  transfer: z.number().int(),
  from: z.string(),
  to: z.string(),
  amount: z.string(),
  currency: z.string(),
  state: RowState,
  /** For a failure, the label's sentence; for a skip or an open question, why. */
  reason: z.string(),
  /** Its leg's outcome is not known yet, and when that doubt ends (docs/failure-modes.md §In doubt). */
  in_doubt: z.boolean().optional(),
  doubt_until: z.number().optional(),
});
export type ReportRow = z.infer<typeof ReportRow>;

export const BatchView = z.object({
  ref: z.string(),
  plan: z.string(),
  title: z.string(),
  currency: z.string(),
  created_at: z.number(),
  /**
   * waiting/rejected/expired: in the confirmation window, or closed there unapproved; running: sending;
   * paused: stopped before sending more (`paused` says why); finished: nothing left to send (the report
   * says how each transfer ended).
   */
  state: z.enum(['waiting', 'rejected', 'expired', 'running', 'paused', 'finished']),
  paused: z.string().nullable(),
  cancelling: z.boolean(),
  transfers: z.number().int(),
  rows: z.array(ReportRow),
});
export type BatchView = z.infer<typeof BatchView>;
