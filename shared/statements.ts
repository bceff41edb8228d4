import { z } from 'zod';
import { DecimalString } from './money.ts';

// Statements (docs/statements.md): one account's spot balance of one currency over a period, from the
// exchange's opening balance through every movement to its closing balance, proven against the
// exchange's own account book.

/** At most a year a statement (§8.1 reads it in 30-day windows). */
export const MAX_STATEMENT_DAYS = 366;

const CurrencyName = z.string().regex(/^[A-Z0-9_]{1,20}$/, 'must be a currency name in capitals, like USDT');
const AccountId = z.union([z.literal('main'), z.string().regex(/^\d{1,19}$/, 'must be "main" or a sub-account uid')]);
/** Statements one run builds at most: every account of a 1,000-sub-account world, and some. */
export const MAX_STATEMENTS_A_RUN = 1_100;

const StatementPeriod = z
  .object({
    /** Epoch milliseconds, the period's start (inclusive) and end (exclusive), as the operator's time zone made them. */
    from: z.number().int().nonnegative(),
    to: z.number().int().positive(),
    /** The operator's time zone (IANA), written on the statement beside the UTC bounds. */
    time_zone: z.string().min(1).max(64),
  })
  .strict();

function checkedPeriod<T extends z.ZodType<{ from: number; to: number }>>(schema: T) {
  return schema
    .refine((r) => r.to > r.from, { message: 'the period must end after it starts', path: ['to'] })
    .refine((r) => r.to - r.from <= MAX_STATEMENT_DAYS * 86_400_000, {
      message: `a statement covers at most ${MAX_STATEMENT_DAYS} days`,
      path: ['to'],
    });
}

export const StatementRequest = checkedPeriod(
  StatementPeriod.extend({
    /** "main", or a sub-account's uid whose key the profile holds. */
    account: AccountId,
    currency: CurrencyName,
  }),
);
export type StatementRequest = z.infer<typeof StatementRequest>;

/** A statement of each of these currencies for each account (every one the profile can read, unless named). */
export const StatementEveryRequest = checkedPeriod(
  StatementPeriod.extend({
    accounts: z
      .array(AccountId)
      .min(1)
      .max(MAX_STATEMENTS_A_RUN)
      .refine((a) => new Set(a).size === a.length, 'names an account twice')
      .optional(),
    currencies: z
      .array(CurrencyName)
      .min(1)
      .max(10, 'at most 10 currencies a run')
      .refine((c) => new Set(c).size === c.length, 'names a currency twice'),
  }),
);
export type StatementEveryRequest = z.infer<typeof StatementEveryRequest>;

/** Where a movement's line comes from: a desk record the exchange's book agrees with, the book alone, the desk alone. */
export const MovementSource = z.enum(['both', 'book', 'desk']);

export const Movement = z.object({
  at: z.number().int(),
  type: z.string(),
  amount: DecimalString,
  fee: DecimalString,
  /** The exchange's balance after it (the book's), or the desk's running figure for a desk-only line. */
  balance_after: DecimalString,
  exchange_id: z.string(),
  desk_id: z.string(),
  approved_by: z.string(),
  source: MovementSource,
  /** Counted in the movements (false: in the book, not explained by a record the desk keeps). */
  counted: z.boolean(),
});
export type Movement = z.infer<typeof Movement>;

export const Unexplained = z.object({ sentence: z.string(), amount: DecimalString, count: z.number().int().positive() });

export const Statement = z.object({
  /** The core's name for this built statement: export and issue take it, never figures sent back. */
  id: z.string(),
  account: z.string(),
  account_label: z.string(),
  currency: z.string(),
  from: z.number().int(),
  to: z.number().int(),
  time_zone: z.string(),
  opening: DecimalString,
  closing: DecimalString,
  /** How the exchange's opening and closing balances were found. */
  balances_from: z.string(),
  movements: z.array(Movement),
  total_in: DecimalString,
  total_out: DecimalString,
  /** opening + counted movements. */
  computed_closing: DecimalString,
  /** closing - computed_closing: zero, or named in `unexplained`. */
  difference: DecimalString,
  unexplained: z.array(Unexplained),
  /** What the statement does not cover, said on it. */
  scope: z.array(z.string()),
  requests: z.number().int().nonnegative(),
});
export type Statement = z.infer<typeof Statement>;

export const STATEMENT_CSV_COLUMNS = [
  'date',
  'account',
  'currency',
  'type',
  'amount',
  'fee',
  'balance_after',
  'exchange_id',
  'desk_id',
  'approved_by',
] as const;

export const StatementAccount = z.object({ account: z.string(), label: z.string(), readable: z.boolean(), why: z.string().optional() });
export type StatementAccount = z.infer<typeof StatementAccount>;

export const StatementFormat = z.enum(['csv', 'pdf']);
export type StatementFormat = z.infer<typeof StatementFormat>;
/** An issued statement file: its bytes as base64 (a PDF is not text), and their SHA-256 as journaled. */
export const StatementFile = z.object({ filename: z.string(), format: StatementFormat, content_base64: z.string(), sha256: z.string() });
export type StatementFile = z.infer<typeof StatementFile>;

export const StatementVerdict = z.object({
  ok: z.boolean(),
  sha256: z.string(),
  sentence: z.string(),
});
export type StatementVerdict = z.infer<typeof StatementVerdict>;

/** What is being counted: the book's 30-day windows of one statement, or the statements of a run of several. */
export const StatementProgress = z.object({
  running: z.boolean(),
  done: z.number().int(),
  of: z.number().int(),
  unit: z.enum(['windows', 'statements']),
});
export type StatementProgress = z.infer<typeof StatementProgress>;

/** A statement without its movements (their number instead): a run's answer stays small; statementGet opens one. */
export const StatementSummary = Statement.omit({ movements: true }).extend({ movement_count: z.number().int().nonnegative() });
export type StatementSummary = z.infer<typeof StatementSummary>;

export const StatementEvery = z.object({
  /** Account by account, each account's currencies in the order asked. */
  statements: z.array(StatementSummary),
  /** Accounts left out of "every account", each with why (no key for its book). */
  unreadable: z.array(StatementAccount),
});
export type StatementEvery = z.infer<typeof StatementEvery>;
