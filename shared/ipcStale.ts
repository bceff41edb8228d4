import type { ChannelName, EventName, IntentView } from './ipc.ts';
import { HISTORY_LISTS } from './ipcNames.ts';

// Which cached answers each core event and each write makes stale. The renderer refetches exactly
// these (and writes an event's payload into the cache where the payload is the new value), so that a
// profile switch or a write costs the reads it changes, not every read the window holds.

/** Channels that read: their answers are cached, keyed by channel and request. */
export const QUERY_CHANNELS = [
  'profileCurrent',
  'profilesList',
  'vaultStatus',
  'settingsGet',
  'intentsList',
  'journalStatus',
  'journalEntries',
  'journalVerify',
  'totalBalance',
  'lastKnown',
  'withdrawalsList',
  'depositsList',
  'transfersList',
  'uidTransfersList',
  'withdrawalsSentUnlisted',
  'statementAccounts',
  'statementProgress',
  'withdrawalDetail',
  'historyStatus',
  'unreadRecords',
  'noticesList',
  'deskStatus',
  'unsentList',
  'depositAddress',
  'balancesMain',
  'balancesSnapshots',
  'balancesMatrix',
  'balancesSubAccount',
  'balancesSettingsGet',
  'balanceAlerts',
  'approvalsState',
  'withdrawalsCancellable',
  'batchStatus',
  'requestStatus',
  'policyReplay',
  'addressBookList',
  'journalAuditKeys',
  'payoutsProgress',
  'payoutsBatches',
  'walletCurrencyChains',
  'walletWithdrawStatus',
  'walletSavedAddresses',
  'rebalanceScope',
  'rebalanceTemplates',
  'rebalanceBatches',
  'spotPairs',
  'spotTicker',
  'spotOrderBook',
  'spotOrders',
  'spotTrades',
  'dustList',
  'dustProgress',
  'dustHistory',
  'lowCapCurrencies',
  'subAccountsManaged',
  'subAccountKeys',
  'subAccountIncident',
  'subAccountIncidentRuns',
  'teamVerify',
  'teamStatus',
] as const satisfies readonly ChannelName[];
export type QueryChannel = (typeof QUERY_CHANNELS)[number];
export type WriteChannel = Exclude<ChannelName, QueryChannel>;

/** The exchange's histories as the desk's cache holds them: the `history` event says they moved. */
const HISTORY_READS = [...HISTORY_LISTS, 'withdrawalsSentUnlisted', 'withdrawalDetail', 'historyStatus', 'unsentList'] as const;

/** Balances of the main account and every sub-account, and their alerts. */
const BALANCE_READS = ['balancesMain', 'balancesSnapshots', 'balancesMatrix', 'balancesSubAccount', 'balanceAlerts'] as const;

/** Operators, policy, the queue and freeze, and the withdrawals a freeze offers to cancel. */
const APPROVAL_READS = ['approvalsState', 'withdrawalsCancellable', 'batchStatus', 'requestStatus', 'policyReplay', 'teamStatus'] as const;

/** The exchange's chains, limits and saved addresses the withdraw form reads. */
const WALLET_READS = ['walletCurrencyChains', 'walletWithdrawStatus', 'walletSavedAddresses'] as const;

/** What an order or a cancel changes: the book, the caller's orders and trades (an `intent` event of a spot kind). */
export const SPOT_READS = ['spotTicker', 'spotOrderBook', 'spotOrders', 'spotTrades'] as const;

/** Small balances, their conversions' progress and history, and the low-cap list flagged beside them. */
const DUST_READS = ['dustList', 'dustProgress', 'dustHistory', 'lowCapCurrencies'] as const;
/** What a conversion's intent moving on changes: the dust it took, the batch's progress, the history it adds. */
const DUST_WRITE_READS = ['dustList', 'dustProgress', 'dustHistory'] as const;

/** Sub-accounts' lock states and keys, and the incident page: a management write or an incident step changes them. */
const SUB_ACCOUNT_READS = ['subAccountsManaged', 'subAccountKeys', 'subAccountIncident', 'subAccountIncidentRuns'] as const;

/**
 * The audit journal's pages: any entry in either journal changes them. Verify is not among them: it
 * reads both files whole, so it runs when the operator asks (and again only for another profile).
 */
const AUDIT_READS = ['journalEntries'] as const;

/** Everything read for one profile: a switch, a removal or an unlock changes all of it. */
const PROFILE_SCOPED = [
  'profileCurrent',
  'unreadRecords',
  'profilesList',
  'journalStatus',
  'intentsList',
  ...AUDIT_READS,
  'journalVerify',
  'journalAuditKeys',
  'payoutsProgress',
  'payoutsBatches',
  'totalBalance',
  'lastKnown',
  ...HISTORY_READS,
  'depositAddress',
  ...BALANCE_READS,
  'balancesSettingsGet',
  ...APPROVAL_READS,
  'addressBookList',
  ...WALLET_READS,
  ...SPOT_READS,
  'rebalanceScope',
  'rebalanceTemplates',
  'rebalanceBatches',
  ...DUST_READS,
  ...SUB_ACCOUNT_READS,
  // Verify of the team's records, like the journals' Verify, runs when asked: again for another profile.
  'teamVerify',
] as const;

/** What each event makes stale (refetched if on screen, else on next view). */
export const STALE_ON_EVENT: Record<EventName, readonly QueryChannel[]> = {
  // The payload is the new vaultStatus (written, not refetched); a lock or unlock changes what can be read.
  vault: PROFILE_SCOPED,
  // The payload is the intent itself, written into every cached intentsList; balances move only when money
  // did. A withdrawal the exchange holds may have left the statuses a freeze offers to cancel.
  intent: ['withdrawalsCancellable', 'batchStatus', 'requestStatus', 'payoutsProgress', 'payoutsBatches', ...AUDIT_READS],
  // A damaged journal found, or archived for a new one: the last verification spoke of another file.
  // An archived journal is a new file: a new id, so a new audit key.
  journal: ['journalStatus', 'intentsList', ...AUDIT_READS, 'journalVerify', 'journalAuditKeys'],
  // Operators, requests, signatures, policy or freeze changed (a payout or rebalance batch approved or rejected among them).
  approvals: [
    ...APPROVAL_READS,
    ...AUDIT_READS,
    'addressBookList',
    'payoutsProgress',
    'payoutsBatches',
    'rebalanceBatches',
    'dustProgress',
    'subAccountIncidentRuns',
  ],
  // A step of an incident sequence finished: its progress, the sub-account's picture and the balances it moved.
  incident: [...SUB_ACCOUNT_READS, ...BALANCE_READS],
  // A transfer of a rebalance batch finished: its progress, and the balances it moved.
  rebalance: ['rebalanceBatches', ...BALANCE_READS],
  profiles: PROFILE_SCOPED,
  // The payloads are the new picture; the status bar reads them as they come (the query only on mount).
  rateLimits: [],
  link: [],
  // A restarted Sandbox may hold other figures than the page shows (its world moved on while down).
  sandbox: ['totalBalance', 'intentsList'],
  history: HISTORY_READS,
  // Shown as a desktop or browser notification, and kept in the core's notices until read.
  notify: ['noticesList'],
  // Progress changes the balances only when a load is done: the shell refetches LOAD_DONE_READS then.
  balancesProgress: [],
  balanceAlert: ['balancesMatrix', 'balancesSubAccount', 'balanceAlerts'],
  // The payload is the new unreadRecords answer (written, not refetched).
  unreadRecords: [],
};

/** Events whose payload is the new value of a query: written straight into the cache. */
export const WRITTEN_BY_EVENT = { vault: 'vaultStatus', intent: 'intentsList', unreadRecords: 'unreadRecords' } as const satisfies Partial<
  Record<EventName, QueryChannel>
>;

/** An intent in one of these states moved money (or settled that it did): the balance is stale. */
/**
 * What an `intent` event of one family of kinds makes stale beyond STALE_ON_EVENT.intent: the pages that follow
 * those writes. A withdrawal's progress asks no exchange read of the small-balance or sub-account pages (each
 * costs a request per account).
 */
export function readsOfIntentKind(kind: IntentView['kind']): readonly QueryChannel[] {
  if (kind.startsWith('spot_')) return SPOT_READS;
  if (kind === 'small_balance_convert') return DUST_WRITE_READS;
  if (kind.startsWith('sub_account_')) return SUB_ACCOUNT_READS;
  // A withdrawal sent, answered or in doubt: the Withdrawals page's "not yet listed" panel.
  if (kind === 'withdrawal') return ['withdrawalsSentUnlisted'];
  return [];
}

export const MONEY_MOVED_STATES: ReadonlySet<IntentView['state']> = new Set(['accepted', 'done', 'settled']);

/**
 * Every figure a move of money makes stale: the total, the main account's own accounts, and the
 * sub-accounts' (matrix, detail, a transfer form's source, a rebalance's scope). The sub-accounts' come
 * from the core's last load, which a move of a sub-account's money starts again (balances/service.ts):
 * LOAD_DONE_READS refetches them once it has ended.
 */
export const MONEY_MOVED_READS = ['totalBalance', 'balancesMain', 'balancesMatrix', 'balancesSubAccount', 'rebalanceScope'] as const;

/** What a finished balances load changes (a `balancesProgress` event with `done`), wherever it is shown. */
export const LOAD_DONE_READS = ['balancesMatrix', 'balancesSubAccount', 'balanceAlerts', 'balancesMain'] as const;

/**
 * What a write's own answer makes stale beyond what the core announces with an event. Writes the core
 * announces (profiles, vault, intents, journal) add nothing here: the event does it, once. A write whose
 * answer is the new value of a query names it in WRITTEN_BY_ANSWER instead.
 */
export const STALE_AFTER_WRITE: Record<WriteChannel, readonly QueryChannel[]> = {
  profileSave: [],
  profileRemove: [],
  profileSelect: [],
  vaultUnlock: [],
  vaultLock: [],
  vaultSetPassphrase: [],
  userActive: [],
  windowPainted: [],
  noticesRead: [],
  settingsSave: [],
  writePrepare: [],
  writeApprove: [],
  writeCancel: [],
  writeSettle: [],
  journalAcknowledgeRecovery: [],
  journalArchive: [],
  journalExport: [],
  // The core announces what these change with a `history` event; an acknowledgement or a cancel is also
  // refetched at once, so the operator sees the answer without waiting for the next sync.
  historyExport: [],
  historySync: [],
  unsentAcknowledge: ['unsentList', 'historyStatus'],
  withdrawalCancel: ['withdrawalsList', 'withdrawalDetail', 'historyStatus'],
  balancesRefresh: [],
  balancesExport: [],
  balancesSettingsSave: ['balancesSettingsGet'],
  balancesSetThreshold: ['balancesSubAccount', 'balancesMatrix', 'balanceAlerts'],
  balancesSetFloor: ['balancesSubAccount', 'balancesMatrix', 'balanceAlerts'],
  balanceAlertAcknowledge: ['balanceAlerts', 'balancesMatrix', 'balancesSubAccount'],
  // A review stores nothing (the form asks for it on Review, so it is never a stale cached verdict).
  approvalsReview: [],
  // A ticket only asks the confirmation window; what is signed there comes back as an `approvals` event.
  approvalsDraft: [],
  approvalsDecide: [],
  approvalsProposePolicy: [],
  approvalsRemoveOperator: [],
  approvalsSetRole: [],
  approvalsFreeze: [],
  approvalsUnfreeze: [],
  // A connection test stores nothing.
  teamTest: [],
  // Announced by the `profiles` event, as profileSave is.
  profileSaveAuditor: [],
  // Founding waits for the first operator in the confirmation window; the swap is announced by an `approvals` event.
  teamFound: [],
  teamJoin: ['teamStatus'],
  teamLeave: ['teamStatus'],
  // A key made at the Sandbox changes no read of this desk.
  teamInvite: [],
  // The built-in profile moves to another desk's Sandbox (the session's profiles event follows) and joins its team.
  teamJoinRehearsal: ['teamStatus', 'profilesList', 'profileCurrent'],
  // An import stores nothing; a queued batch is announced by the `approvals` event; a report is a read.
  payoutsImport: [],
  payoutsQueue: [],
  payoutsReport: [],
  // The window that archived refetches its list; nothing else reads the flag.
  payoutsArchive: ['payoutsBatches'],
  withdrawalsCancel: ['withdrawalsCancellable', 'withdrawalsList', 'withdrawalDetail', 'historyStatus'],
  addressBookAdd: ['addressBookList'],
  // The removal is signed in the confirmation window; its approval is announced by an `approvals` event.
  addressBookRemove: [],
  // A plan stores nothing the window reads; a draft, cancel or resume is announced by a `rebalance` event.
  rebalancePlan: [],
  rebalanceDraft: [],
  rebalanceCancel: [],
  rebalanceResume: [],
  rebalanceReport: [],
  rebalanceArchive: ['rebalanceBatches'],
  rebalanceTemplateSave: ['rebalanceTemplates'],
  rebalanceTemplateDelete: ['rebalanceTemplates'],
  // A review stores nothing; a drafted conversion is announced by the `approvals` event; a CSV is a read.
  dustReview: [],
  dustConvert: [],
  dustHistoryCsv: [],
  // The draft waits in the confirmation window; the page follows it with subAccountIncidentRuns.
  subAccountIncidentDraft: ['subAccountIncidentRuns'],
  statementBuild: ['statementProgress'],
  statementBuildEvery: ['statementProgress'],
  statementGet: [],
  statementCancel: ['statementProgress'],
  // Issuing journals the statement's digest.
  statementIssue: ['journalEntries', 'journalVerify'],
  statementVerify: [],
};

/** Writes whose answer is the new value of a query (request-free queries only). */
export const WRITTEN_BY_ANSWER = {
  settingsSave: 'settingsGet',
  vaultUnlock: 'vaultStatus',
  vaultLock: 'vaultStatus',
  vaultSetPassphrase: 'vaultStatus',
  journalAcknowledgeRecovery: 'journalStatus',
  historySync: 'historyStatus',
  noticesRead: 'noticesList',
  // An intent answer is merged into the cached lists, like the `intent` event that follows it.
  writePrepare: 'intentsList',
  writeApprove: 'intentsList',
  writeCancel: 'intentsList',
  writeSettle: 'intentsList',
} as const satisfies Partial<Record<WriteChannel, QueryChannel>>;

/**
 * Reads that change only when the core says so: an event above names them, or a write's answer or
 * STALE_AFTER_WRITE does. The window treats their cached answer as fresh until then (TanStack Query's
 * `staleTime: Infinity`), so a page mount costs no call. Reads of the exchange's live state (the total,
 * the main account's accounts, the market, the wallet's limits, the balances a rebalance plans from,
 * the withdrawals cancellable now), those a finished load changes (the matrix) and those the clock
 * changes (approvalsState: an operator's cooling-off ends) are left out: refetched on mount as before.
 */
export const KEPT_FRESH_BY_EVENTS: ReadonlySet<QueryChannel> = new Set<QueryChannel>([
  'profileCurrent',
  'profilesList',
  'vaultStatus',
  'settingsGet',
  'intentsList',
  'journalStatus',
  'journalEntries',
  'journalVerify',
  'journalAuditKeys',
  ...HISTORY_READS,
  'balancesSettingsGet',
  'balanceAlerts',
  'batchStatus',
  'requestStatus',
  'addressBookList',
  'payoutsProgress',
  'payoutsBatches',
  'rebalanceTemplates',
  'rebalanceBatches',
  'unreadRecords',
  'noticesList',
  'teamVerify',
]);

/** Channels whose answer comes from the exchange: their outcomes are the connection state the window shows. */
export const EXCHANGE_CHANNELS: ReadonlySet<ChannelName> = new Set<ChannelName>(['totalBalance', 'profileSave', 'writeApprove']);
