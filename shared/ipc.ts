import { z } from 'zod';
import { ENVIRONMENT_NAMES, OPERATOR_ENVIRONMENTS, PERMISSION_GROUPS } from './api/environments.ts';
import { SavedAddress, TotalBalance, VALUATION_CURRENCIES, WithdrawalChain, WithdrawalLimits } from './api/records.ts';
import { Policy, Verdict } from './api/policy.ts';
import { CurrencyPair, OrderBook, SpotOrder, SpotTrade, Ticker } from './api/orders.ts';
import { AuditKey, AuditPage, AuditQuery, JournalExportAnswer, JournalVerifyAnswer } from './journal.ts';
import { PayoutFile, PayoutProgress, PayoutQueued, PayoutQueueRequest, PayoutReview } from './payouts.ts';
import { CsvExport } from './csvExport.ts';
import { WRITE_KINDS, WriteKind, WriteRequest } from './api/writes.ts';
import { BatchView, PlanRequest, RebalancePlan, RebalanceScope, Template } from './rebalance.ts';
import { BatchStatus } from './api/batch.ts';
import {
  AlertView,
  BalanceSettings,
  FloorInput,
  LoadProgress,
  LoadStatus,
  MainBalances,
  MatrixPage,
  MatrixQuery,
  QuoteCurrency,
  Snapshot,
  SubAccountDetail,
  ThresholdInput,
} from './balances.ts';
import {
  DepositAddress,
  DepositPage,
  HISTORY_KINDS,
  HistoryPageRequest,
  HistoryQuery,
  HistoryStatus,
  TimelineEntry,
  TransferPage,
  UidTransferPage,
  UnsentItem,
  WithdrawalPage,
  WithdrawalRow,
} from './history.ts';

// The IPC contract: every channel the renderer may call, with the schema its request must parse by
// before anything runs in the core, and the schema of its answer. Preload, hosts, core handlers and
// renderer hooks all derive from this one object.

export const PermissionLevel = z.enum(['none', 'read', 'write']);
export const Permissions = z
  .object({
    ...(Object.fromEntries(PERMISSION_GROUPS.map((g) => [g, PermissionLevel])) as Record<
      (typeof PERMISSION_GROUPS)[number],
      typeof PermissionLevel
    >),
    unified: z.boolean(),
  })
  .strict();
export type Permissions = z.infer<typeof Permissions>;

const Name = z.string().trim().min(1, 'a name is required').max(64, 'at most 64 characters');
const ApiKey = z
  .string()
  .trim()
  .regex(/^[A-Za-z0-9]{8,128}$/, 'an API key is 8 to 128 letters and digits');
const ApiSecret = z
  .string()
  .trim()
  .regex(/^[A-Za-z0-9]{16,256}$/, 'an API secret is 16 to 256 letters and digits');
const BaseUrl = z
  .string()
  .trim()
  .url('a base address such as https://host/api/v4')
  .refine((u) => /^https?:\/\//.test(u) && /\/api\/v4\/?$/.test(u), 'the base address must be http(s) and end in /api/v4');
const Svc = z
  .string()
  .trim()
  .regex(/^[A-Za-z][A-Za-z0-9]{0,31}$/, 'the service name is letters and digits, as in X-<name>-RateLimit-Limit');

export const ProfileSummary = z.object({
  id: z.string(),
  name: z.string(),
  environment: z.enum(ENVIRONMENT_NAMES),
  base_url: z.string(),
  svc: z.string(),
  key_masked: z.string(),
  permissions: Permissions,
  /** `permissions`: what the exchange has proved this sub-account key cannot do (absent: nothing yet). */
  sub_keys: z.array(z.object({ uid: z.string(), key_masked: z.string(), permissions: Permissions.optional() })),
  /** The Sandbox profile is built in: its keys come from the Sandbox, it cannot be edited or removed. */
  built_in: z.boolean(),
});
export type ProfileSummary = z.infer<typeof ProfileSummary>;

export const ProfileInput = z
  .object({
    /** Absent for a new profile. */
    id: z.string().max(64).optional(),
    name: Name,
    environment: z.enum(OPERATOR_ENVIRONMENTS),
    base_url: BaseUrl,
    svc: Svc,
    /** Absent when editing: the stored key and secret stay. */
    key: ApiKey.optional(),
    /** Absent when editing the same key: the stored secret stays. */
    secret: ApiSecret.optional(),
    permissions: Permissions,
    sub_keys: z
      .array(
        z
          .object({
            uid: z.string().regex(/^\d{1,20}$/, 'a sub-account uid is digits'),
            key: ApiKey.optional(),
            secret: ApiSecret.optional(),
          })
          .strict(),
      )
      .max(100),
  })
  .strict()
  .superRefine((p, ctx) => {
    const problem = baseUrlProblem(p.environment, p.base_url);
    if (problem) ctx.addIssue({ code: 'custom', path: ['base_url'], message: problem });
  });
export type ProfileInput = z.infer<typeof ProfileInput>;

/**
 * A key for real money goes out over TLS only: live and simulated-trading profiles take https://. The
 * futures-alternative profile may also name a plain-http exchange on this machine's loopback (a local
 * rehearsal such as the Sandbox), where no relay sits between desk and exchange.
 */
export function baseUrlProblem(environment: string, baseUrl: string): string | null {
  let url: URL;
  try {
    url = new URL(baseUrl.trim());
  } catch {
    return null; // BaseUrl already names this.
  }
  // Only http(s) is in question here: anything else is BaseUrl's to name.
  if (url.protocol !== 'http:') return null;
  const loopback = ['127.0.0.1', 'localhost', '[::1]'].includes(url.hostname);
  if (environment === 'futures' && loopback) return null;
  return environment === 'futures'
    ? 'the base address must be https:// (plain http only to this machine: 127.0.0.1, localhost or [::1])'
    : 'a live or simulated-trading profile needs an https:// base address';
}

export const VaultStatus = z.object({
  locked: z.boolean(),
  /** How secrets are kept: the OS keychain through Electron, or a passphrase; null until a secret is stored. */
  backend: z.enum(['safeStorage', 'passphrase']).nullable(),
  passphrase_set: z.boolean(),
  /** Why the OS keychain is not used, when it is not. */
  keychain_note: z.string().nullable(),
  /** After failed passphrases: how long before the next unlock may be tried (0: now). */
  unlock_wait_ms: z.number().int().nonnegative(),
});
export type VaultStatus = z.infer<typeof VaultStatus>;

export const Settings = z
  .object({
    idle_lock_minutes: z
      .number()
      .int()
      .min(1)
      .max(24 * 60),
    settle_seconds: z.number().int().min(5).max(600),
  })
  .strict();
export type Settings = z.infer<typeof Settings>;

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
/** States after which nothing more happens to a write. */
export const FINISHED_INTENT_STATES: ReadonlySet<IntentState> = new Set(['done', 'refused', 'settled', 'cancelled']);

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

/** A batch and where each of its rows stands: the intent the journal holds under the row's id, or null before it is handed over. */
export const BatchProgress = BatchStatus.extend({ intents: z.array(IntentView.nullable()) });
export type BatchProgress = z.infer<typeof BatchProgress>;

/** A request or change waiting for approvals, as the Approvals page shows it. */
export const ApprovalItem = z.object({
  ref: z.string(),
  what: z.enum(['request', 'batch', 'add_operator', 'remove_operator', 'policy', 'unfreeze']),
  profile: z.string().optional(),
  kind: z.string().optional(),
  body: z.record(z.string(), z.union([z.string(), z.number()])).optional(),
  /** The sub-account whose key signs the request; absent: the main key. */
  signer: z.string().optional(),
  verdict: Verdict.optional(),
  /** What a change proposes, in words. */
  summary: z.string(),
  drafted_by: z.string(),
  drafted_at: z.number(),
  approved_by: z.array(z.string()),
  needed: z.number().int(),
  state: z.enum(['waiting', 'cooling_off', 'in_force', 'sent', 'approved', 'rejected']),
  effective_at: z.number().nullable(),
  rejected: z.object({ by: z.string(), reason: z.string() }).nullable(),
});
export type ApprovalItem = z.infer<typeof ApprovalItem>;

export const ApprovalsState = z.object({
  operators: z.array(z.object({ id: z.string(), name: z.string(), state: z.enum(['in_force', 'pending', 'removed']) })),
  /** No operator yet: the first is created in the confirmation window. */
  needs_first_operator: z.boolean(),
  policy: z.object({ rules: Policy.shape.rules, ref: z.string().nullable(), refused: z.string().nullable() }),
  change_quorum: z.number().int(),
  cooling_off_hours: z.number(),
  frozen: z.object({ by: z.string(), at: z.number(), reason: z.string() }).nullable(),
  items: z.array(ApprovalItem),
  /** Why nothing can be drafted right now (locked desk, read-only key, refused policy), or null. */
  blocked: z.string().nullable(),
});
export type ApprovalsState = z.infer<typeof ApprovalsState>;

export const Review = z.object({
  kind: z.enum(WRITE_KINDS),
  /** The wire body as it will be sent (its id is set when it is drafted). */
  body: z.record(z.string(), z.union([z.string(), z.number()])),
  /** The sub-account whose key will sign it; absent: the profile's main key. */
  signer: z.string().optional(),
  verdict: Verdict,
  destination_note: z.string().nullable(),
});
export type Review = z.infer<typeof Review>;

const Ticket = z.object({ ticket: z.string(), title: z.string() });

const SpotPair = z.string().regex(/^[A-Z0-9]{1,16}_[A-Z0-9]{1,16}$/, 'a currency pair such as BTC_USDT');
const SubUid = z.string().regex(/^\d{1,20}$/, 'a sub-account uid is digits');

const Passphrase = z.string().min(10, 'a passphrase has at least 10 characters').max(1024);

export const channels = {
  profileCurrent: {
    request: z.object({}).strict(),
    response: ProfileSummary.nullable(),
  },
  profilesList: {
    request: z.object({}).strict(),
    response: z.object({ active_id: z.string().nullable(), profiles: z.array(ProfileSummary) }),
  },
  /** Saves after one read call with the key; a refusal comes back with the label's sentence and nothing is saved. */
  profileSave: {
    request: ProfileInput,
    response: ProfileSummary,
  },
  profileRemove: {
    request: z.object({ id: z.string().max(64) }).strict(),
    response: z.object({ removed: z.literal(true) }),
  },
  profileSelect: {
    request: z.object({ id: z.string().max(64) }).strict(),
    response: ProfileSummary,
  },
  vaultStatus: {
    request: z.object({}).strict(),
    response: VaultStatus,
  },
  /** With the OS keychain the passphrase is empty: the operator's desktop session is the gate. */
  vaultUnlock: {
    request: z.object({ passphrase: z.string().max(1024) }).strict(),
    response: VaultStatus,
  },
  vaultLock: {
    request: z.object({}).strict(),
    response: VaultStatus,
  },
  /**
   * Sets the first passphrase, or (unlocked only) changes it with the current one, or moves a keychain
   * vault to a passphrase with `leave_keychain: true`. Never unlocks a locked desk.
   */
  vaultSetPassphrase: {
    request: z.object({ current: z.string().max(1024).optional(), next: Passphrase, leave_keychain: z.literal(true).optional() }).strict(),
    response: VaultStatus,
  },
  /** The operator used the window (a key or a click): the idle lock's clock starts again. Polling never counts. */
  userActive: {
    request: z.object({}).strict(),
    response: z.object({ locked: z.boolean() }),
  },
  settingsGet: {
    request: z.object({}).strict(),
    response: Settings,
  },
  settingsSave: {
    request: Settings,
    response: Settings,
  },
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
    request: z.object({ format: z.enum(['csv', 'bundle']) }).strict(),
    response: JournalExportAnswer,
  },
  /** The keys the signed bundle is signed with, by fingerprint: the same figures `npm run verify-journal` prints. */
  journalAuditKeys: {
    request: z.object({}).strict(),
    response: z.array(AuditKey),
  },
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
  /** The batch's report (sent, refused with the label's sentence, skipped) as CSV text. */
  payoutsReport: {
    request: z.object({ ref: z.string().min(1).max(64) }).strict(),
    response: CsvExport,
  },
  /** Operators, the policy in force, the queue of requests and changes, freeze. */
  approvalsState: {
    request: z.object({}).strict(),
    response: ApprovalsState,
  },
  /** The policy's verdict, rule by rule, on a write and exactly what would be sent; nothing is stored. */
  approvalsReview: {
    request: z.object({ write: WriteRequest }).strict(),
    response: Review,
  },
  /**
   * Asks for a signed draft: the confirmation window shows the body the core built and an operator signs
   * it there. Nothing here takes a passphrase or signs; a blocked write gets no ticket.
   */
  approvalsDraft: {
    request: z.object({ write: WriteRequest, note: z.string().max(500).optional() }).strict(),
    response: Ticket,
  },
  /** A batch (payouts, a rebalance) as its approvals stand, with each row as the journal holds it (absent: not sent yet). */
  batchStatus: {
    request: z.object({ ref: z.string().min(1).max(64) }).strict(),
    response: BatchProgress.nullable(),
  },
  /** Asks the confirmation window for an approval or a rejection (with its reason) of a request or change. */
  approvalsDecide: {
    request: z
      .object({
        ref: z.string().min(1).max(64),
        action: z.enum(['approve', 'reject']),
        reason: z.string().trim().min(1).max(500).optional(),
      })
      .strict(),
    response: Ticket,
  },
  approvalsProposePolicy: {
    request: z.object({ policy: Policy }).strict(),
    response: Ticket,
  },
  approvalsRemoveOperator: {
    request: z.object({ id: z.string().min(1).max(64) }).strict(),
    response: Ticket,
  },
  /** Any operator, no quorum: asks the confirmation window for one signature. */
  approvalsFreeze: {
    request: z.object({ reason: z.string().trim().max(500).default('') }).strict(),
    response: Ticket,
  },
  approvalsUnfreeze: {
    request: z.object({}).strict(),
    response: Ticket,
  },
  /** Withdrawals the exchange holds and may still cancel (after a freeze, offered in one step). */
  withdrawalsCancellable: {
    request: z.object({}).strict(),
    response: z.array(
      z.object({
        intent: z.string(),
        exchange_id: z.string(),
        currency: z.string(),
        amount: z.string(),
        address: z.string(),
        status: z.string(),
      }),
    ),
  },
  /** DELETE /withdrawals/{id} for each: makes the money safer, so it needs no quorum. */
  withdrawalsCancel: {
    request: z.object({ exchange_ids: z.array(z.string().min(1).max(64)).min(1).max(100) }).strict(),
    response: z.array(z.object({ exchange_id: z.string(), ok: z.boolean(), message: z.string() })),
  },
  /** The desk's own address book; a new entry waits out the cooling-off before rules that need a known address accept it. */
  addressBookList: {
    request: z.object({}).strict(),
    response: z.array(
      z.object({
        currency: z.string(),
        chain: z.string(),
        address: z.string(),
        memo: z.string().optional(),
        added_at: z.number(),
        ready_at: z.number(),
      }),
    ),
  },
  addressBookAdd: {
    request: z
      .object({
        currency: z.string().trim().min(1).max(32),
        chain: z.string().trim().min(1).max(64),
        address: z.string().trim().min(1).max(256),
        memo: z.string().max(256).optional(),
      })
      .strict(),
    response: z.object({ added_at: z.number(), ready_at: z.number() }),
  },
  /** §2.2 chains of a currency with their flags (for the withdraw form). */
  walletCurrencyChains: {
    request: z.object({ currency: z.string().trim().min(1).max(32) }).strict(),
    response: z.array(WithdrawalChain),
  },
  /** §2.7 fees and limits (every currency when none is named). */
  walletWithdrawStatus: {
    request: z.object({ currency: z.string().trim().min(1).max(32).optional() }).strict(),
    response: z.array(WithdrawalLimits),
  },
  /** §2.9 the exchange's saved addresses, with their verified mark. */
  walletSavedAddresses: {
    request: z.object({ currency: z.string().trim().min(1).max(32) }).strict(),
    response: z.array(SavedAddress),
  },
  totalBalance: {
    request: z.object({ currency: z.enum(VALUATION_CURRENCIES).default('USDT') }).strict(),
    response: TotalBalance,
  },
  /** The main account's own spot, isolated margin, futures (per settle) and cross margin accounts, read fresh. */
  balancesMain: {
    request: z.object({ quote: QuoteCurrency.default('USDT') }).strict(),
    response: MainBalances,
  },
  /** Snapshots of the §2.9 total the desk keeps at each fetch, oldest first. */
  balancesSnapshots: {
    request: z
      .object({ currency: z.enum(VALUATION_CURRENCIES).default('USDT'), since: z.number().int().nonnegative().default(0) })
      .strict(),
    response: z.array(Snapshot),
  },
  /** One page of the sub-account matrix; with nothing loaded it starts the load (progress as balancesProgress events). */
  balancesMatrix: {
    request: MatrixQuery,
    response: MatrixPage,
  },
  /** Loads every sub-account's balances again; answers when the load has ended. */
  balancesRefresh: {
    request: z.object({}).strict(),
    response: LoadStatus,
  },
  /** The whole filtered matrix as CSV text. */
  balancesExport: {
    request: MatrixQuery,
    response: CsvExport,
  },
  /** Every §2.8 record of one sub-account, its alert settings and its alerts. */
  balancesSubAccount: {
    request: z
      .object({ uid: z.string().regex(/^\d{1,20}$/, 'a sub-account uid is digits'), quote: QuoteCurrency.default('USDT') })
      .strict(),
    response: SubAccountDetail,
  },
  balancesSettingsGet: {
    request: z.object({}).strict(),
    response: BalanceSettings,
  },
  balancesSettingsSave: {
    request: BalanceSettings,
    response: BalanceSettings,
  },
  /** A sub-account's own risk threshold; null goes back to the default. */
  balancesSetThreshold: {
    request: ThresholdInput,
    response: SubAccountDetail,
  },
  /** A low-balance floor for one sub-account and currency; null removes it. */
  balancesSetFloor: {
    request: FloorInput,
    response: SubAccountDetail,
  },
  /** Alerts standing or not yet acknowledged. */
  balanceAlerts: {
    request: z.object({}).strict(),
    response: z.array(AlertView),
  },
  balanceAlertAcknowledge: {
    request: z.object({ id: z.number().int().positive() }).strict(),
    response: AlertView,
  },

  // Spot market (issue 16): read fresh from the exchange through the scheduler; `sub_uid` reads with that
  // sub-account's own key (the profile must hold it).
  spotPairs: { request: z.object({}).strict(), response: z.array(CurrencyPair) },
  spotTicker: { request: z.object({ currency_pair: SpotPair }).strict(), response: Ticker },
  spotOrderBook: {
    request: z.object({ currency_pair: SpotPair, limit: z.number().int().min(1).max(100).default(10) }).strict(),
    response: OrderBook,
  },
  /** Open orders, or finished ones newest first (at most `limit`). */
  spotOrders: {
    request: z
      .object({
        currency_pair: SpotPair,
        status: z.enum(['open', 'finished']),
        sub_uid: SubUid.optional(),
        limit: z.number().int().min(1).max(100).default(50),
      })
      .strict(),
    response: z.array(SpotOrder),
  },
  spotTrades: {
    request: z
      .object({ currency_pair: SpotPair, sub_uid: SubUid.optional(), limit: z.number().int().min(1).max(100).default(50) })
      .strict(),
    response: z.array(SpotTrade),
  },

  // History (issue 10): one page at a time from the core's cache; never a whole list.
  withdrawalsList: { request: HistoryPageRequest, response: WithdrawalPage },
  depositsList: { request: HistoryPageRequest, response: DepositPage },
  transfersList: { request: HistoryPageRequest, response: TransferPage },
  uidTransfersList: { request: HistoryPageRequest, response: UidTransferPage },
  /** One withdrawal with every status the desk saw and when, and the journal entry that sent it when the desk did. */
  withdrawalDetail: {
    request: z.object({ id: z.string().min(1).max(128) }).strict(),
    response: z.object({
      record: WithdrawalRow,
      timeline: z.array(TimelineEntry),
      intent: IntentView.nullable(),
      /** Whether the desk offers to cancel it (shared/api/statuses.ts says in which statuses, and why). */
      cancellable: z.boolean(),
    }),
  },
  /** The whole filtered, sorted list as CSV text (the renderer saves it where the operator chooses). */
  historyExport: {
    request: z
      .object({ kind: z.enum(HISTORY_KINDS), query: HistoryQuery.default({ filters: {}, sort: { by: 'time', dir: 'desc' } }) })
      .strict(),
    response: CsvExport,
  },
  historyStatus: { request: z.object({}).strict(), response: HistoryStatus },
  /** Reads what is new now (the operator's Refresh); answers when that sync is over. */
  historySync: { request: z.object({}).strict(), response: HistoryStatus },
  /** Outflows not sent by this desk: unacknowledged first, newest first. */
  unsentList: {
    request: z.object({ include_acknowledged: z.boolean().default(false) }).strict(),
    response: z.array(UnsentItem),
  },
  unsentAcknowledge: {
    request: z
      .object({
        kind: z.enum(['withdrawals', 'uid_transfers']),
        id: z.string().min(1).max(128),
        note: z.string().trim().min(1, 'say what you found').max(500),
      })
      .strict(),
    response: UnsentItem,
  },
  /** DELETE /withdrawals/{id} (§4.2): answered 202, the outcome is read from the record's status later. */
  withdrawalCancel: {
    request: z.object({ id: z.string().regex(/^w?\d{1,20}$/, 'a withdrawal id such as w123') }).strict(),
    response: z.object({ id: z.string(), status: z.string(), http_status: z.literal(202) }),
  },
  /** §2.1 for one currency. */
  depositAddress: {
    request: z
      .object({
        currency: z
          .string()
          .trim()
          .regex(/^[A-Za-z0-9_]{1,32}$/, 'a currency name such as USDT'),
      })
      .strict(),
    response: DepositAddress,
  },

  // Rebalance (issue 14): plans come from balances the core reads; a plan runs only as an approved batch.
  /** The accounts a rebalance of one currency may include, with what each holds now. */
  rebalanceScope: {
    request: z.object({ currency: z.string().regex(/^[A-Z0-9]{1,16}$/, 'a currency such as USDT') }).strict(),
    response: RebalanceScope,
  },
  /** Plans from fresh balances; nothing is stored but the plan (for a draft), nothing is sent. */
  rebalancePlan: { request: PlanRequest, response: RebalancePlan },
  rebalanceTemplates: { request: z.object({}).strict(), response: z.array(Template) },
  /** Saves (or replaces, by name) a named set of targets. */
  rebalanceTemplateSave: { request: Template, response: z.array(Template) },
  rebalanceTemplateDelete: { request: z.object({ name: z.string().min(1).max(64) }).strict(), response: z.array(Template) },
  /** Drafts a computed plan as one batch: the confirmation window shows it for operators to sign. */
  rebalanceDraft: {
    request: z.object({ plan: z.string().regex(/^[A-Za-z0-9_-]{1,40}$/, 'a plan id') }).strict(),
    response: z.object({ ticket: z.string(), title: z.string(), ref: z.string() }),
  },
  /** The profile's rebalance batches, newest first, with their progress and report. */
  rebalanceBatches: { request: z.object({}).strict(), response: z.array(BatchView) },
  /** Stops a batch between transfers: the rest is skipped, never sent. */
  rebalanceCancel: {
    request: z.object({ ref: z.string().min(1).max(64), reason: z.string().trim().min(1, 'say why').max(500) }).strict(),
    response: BatchView,
  },
  /** A paused batch: read the balances again and go on if they allow it. */
  rebalanceResume: { request: z.object({ ref: z.string().min(1).max(64) }).strict(), response: BatchView },
  rebalanceReport: {
    request: z.object({ ref: z.string().min(1).max(64) }).strict(),
    response: CsvExport,
  },
} as const;

export type Channels = typeof channels;
export type ChannelName = keyof Channels;
export type ChannelRequest<C extends ChannelName> = z.input<Channels[C]['request']>;
export type ChannelResponse<C extends ChannelName> = z.output<Channels[C]['response']>;

export const CHANNEL_NAMES = Object.keys(channels) as ChannelName[];

export function isChannelName(name: unknown): name is ChannelName {
  return typeof name === 'string' && Object.prototype.hasOwnProperty.call(channels, name);
}

/** The string used on the wire (Electron channel, web route) for a contract channel. */
export function wireChannel(name: ChannelName): string {
  return `desk:${name}`;
}

// Events the core pushes to the renderer (the renderer never asks for them): each with its schema.
export const events = {
  vault: VaultStatus,
  /** Operators, requests, approvals, policy or freeze changed. */
  approvals: z.object({}).strict(),
  /** A write changed state (journaled first, then told). */
  intent: IntentView,
  /** The active profile's journal changed state (found damaged, archived, a recovery shown or acknowledged). */
  journal: z.object({}).strict(),
  /** The profiles changed (saved, removed, selected, or a permission corrected by the exchange's answer). */
  profiles: z.object({ active_id: z.string().nullable() }),
  /** The cached histories changed: records new or moved to another status, with the counts the shell shows. */
  history: z.object({
    changes: z.array(z.object({ kind: z.enum(HISTORY_KINDS), id: z.string(), status: z.string(), from: z.string().nullable() })),
    in_flight: z.number().int().nonnegative(),
    unsent: z.number().int().nonnegative(),
  }),
  /** Something the operator should know now: the Electron host shows it as a desktop notification, the web page as the browser's. */
  notify: z.object({ title: z.string(), body: z.string(), tag: z.string() }),
  /** The desk's supervisor saw its Sandbox stop, and started it again on the same port and data. */
  sandbox: z.object({ state: z.enum(['down', 'restarted']), at: z.number() }),
  /** Request buckets that are busy: something queued, nearly spent, or paused after a 429. */
  rateLimits: z.object({
    buckets: z.array(
      z.object({
        key: z.string(),
        queued: z.number().int().nonnegative(),
        remaining: z.number().int(),
        limit: z.number().int().positive(),
        paused_until_ms: z.number().nullable(),
      }),
    ),
  }),
  /** A balances load moved on (loaded / total requests). */
  balancesProgress: LoadProgress,
  /** A rebalance batch moved on (a transfer finished, paused, cancelled, drafted). */
  rebalance: z.object({ ref: z.string() }).strict(),
  /** A risk or low-balance alert was raised: a notification for the operator. */
  balanceAlert: AlertView,
} as const;

export type Events = typeof events;

export type EventName = keyof Events;
export type EventPayload<E extends EventName> = z.output<Events[E]>;
export const EVENT_NAMES = Object.keys(events) as EventName[];

export function isEventName(name: unknown): name is EventName {
  return typeof name === 'string' && Object.prototype.hasOwnProperty.call(events, name);
}

export function wireEvent(name: EventName): string {
  return `desk-event:${name}`;
}

export const DeskErrorKind = z.enum(['invalid_request', 'exchange', 'network', 'locked', 'internal']);
export type DeskErrorKind = z.infer<typeof DeskErrorKind>;

/**
 * A refusal as structure, the same through both hosts: the window shows `message` as it is and puts it
 * on the field `path` names; nothing on either side builds or parses a "<channel>: <field>: …" string.
 */
export const DeskErrorBody = z.object({
  kind: DeskErrorKind,
  /** The sentence an operator reads (what happened, what to do): never a channel name or a field path. */
  message: z.string(),
  /** The exchange's §7 label, or the desk's own code (JOURNAL_DAMAGED, a vault code). */
  label: z.string().optional(),
  /** Where inside the request the refusal points (["write", "input", "amount"]), for forms to put it on that field. */
  path: z.array(z.union([z.string(), z.number()])).optional(),
  /** The channel that answered, for logs and tests; absent when the host refused before any channel ran. */
  channel: z.string().optional(),
});
export type DeskErrorBody = z.infer<typeof DeskErrorBody>;

export type Reply<T> = { ok: true; data: T } | { ok: false; error: DeskErrorBody };

/** What the renderer sees as `window.desk`: one method per channel, each answering a Reply, and `on` for events. */
export type DeskApi = {
  [C in ChannelName]: (request: ChannelRequest<C>) => Promise<Reply<ChannelResponse<C>>>;
} & {
  /** Subscribes to a core event; returns the function that unsubscribes. */
  on<E extends EventName>(event: E, listener: (payload: EventPayload<E>) => void): () => void;
};

/** What a host's bridge carries: one call for every channel, one subscription for events, as JSON. */
export interface DeskTransport {
  invoke(name: ChannelName, request: unknown): Promise<Reply<unknown>>;
  on(event: EventName, listener: (payload: unknown) => void): () => void;
}

/**
 * The renderer's DeskApi over a host's transport, one method per contract channel. The transport
 * carries untyped JSON; each reply's type is the contract's promise, kept by the core (a reply is
 * checked against its channel's response schema, an event against its schema, before either leaves),
 * so this is the one place where the wire's `unknown` becomes the channel's type.
 */
export function deskApiOver(transport: DeskTransport): DeskApi {
  const methods = Object.fromEntries(CHANNEL_NAMES.map((name) => [name, (request: unknown) => transport.invoke(name, request)]));
  return { ...methods, on: transport.on } as DeskApi;
}
