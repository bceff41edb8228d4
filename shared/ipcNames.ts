import type { ChannelName, DeskApi, DeskTransport, EventName } from './ipc.ts';

// The contract's channel and event names without their schemas. The window needs the names before its
// first paint (one method per channel, one subscription per event) but none of the schemas: building
// every zod schema of the contract at import time was most of the window's start-up script time, ahead
// of anything drawn (docs/performance.md §Opening the desk). The typecheck holds these lists to shared/ipc.ts's channels and events
// both ways: a channel added there and not here fails `npm run typecheck` with its name. The preload
// and the web desk build the window's DeskApi from here.

/** Every channel of the contract (shared/ipc.ts `channels`), as CHANNEL_NAMES. */
const CHANNELS = [
  'profileCurrent',
  'profilesList',
  'profileSave',
  'profileSaveAuditor',
  'profileRemove',
  'profileSelect',
  'vaultStatus',
  'vaultUnlock',
  'vaultLock',
  'vaultSetPassphrase',
  'userActive',
  'settingsGet',
  'settingsSave',
  'writePrepare',
  'writeApprove',
  'writeCancel',
  'writeSettle',
  'intentsList',
  'journalStatus',
  'journalAcknowledgeRecovery',
  'journalArchive',
  'journalEntries',
  'journalVerify',
  'journalExport',
  'journalAuditKeys',
  'payoutsImport',
  'payoutsQueue',
  'payoutsProgress',
  'payoutsBatches',
  'payoutsArchive',
  'payoutsReport',
  'approvalsState',
  'approvalsReview',
  'approvalsDraft',
  'requestStatus',
  'batchStatus',
  'approvalsDecide',
  'policyReplay',
  'approvalsProposePolicy',
  'approvalsSetRole',
  'approvalsRemoveOperator',
  'approvalsFreeze',
  'approvalsUnfreeze',
  'addressBookList',
  'addressBookRemove',
  'addressBookAdd',
  'withdrawalsCancellable',
  'withdrawalsCancel',
  'walletCurrencyChains',
  'walletWithdrawStatus',
  'walletSavedAddresses',
  'totalBalance',
  'balancesMain',
  'lastKnown',
  'balancesSnapshots',
  'balancesMatrix',
  'balancesRefresh',
  'balancesExport',
  'balancesSubAccount',
  'balancesSettingsGet',
  'balancesSettingsSave',
  'balancesSetThreshold',
  'balancesSetFloor',
  'balanceAlerts',
  'balanceAlertAcknowledge',
  'spotPairs',
  'spotTicker',
  'spotOrderBook',
  'spotOrders',
  'spotTrades',
  'withdrawalsList',
  'depositsList',
  'transfersList',
  'uidTransfersList',
  'withdrawalsSentUnlisted',
  'withdrawalDetail',
  'historyExport',
  'historyStatus',
  'unreadRecords',
  'noticesList',
  'noticesRead',
  'historySync',
  'unsentList',
  'unsentAcknowledge',
  'withdrawalCancel',
  'depositAddress',
  'rebalanceScope',
  'rebalancePlan',
  'rebalanceTemplates',
  'rebalanceTemplateSave',
  'rebalanceTemplateDelete',
  'rebalanceDraft',
  'rebalanceBatches',
  'rebalanceArchive',
  'rebalanceCancel',
  'rebalanceResume',
  'rebalanceReport',
  'deskStatus',
  'windowPainted',
  'dustList',
  'dustReview',
  'dustConvert',
  'dustProgress',
  'dustHistory',
  'dustHistoryCsv',
  'lowCapCurrencies',
  'subAccountsManaged',
  'subAccountKeys',
  'subAccountIncident',
  'subAccountIncidentDraft',
  'statementAccounts',
  'statementBuild',
  'statementBuildEvery',
  'statementGet',
  'statementProgress',
  'statementCancel',
  'statementIssue',
  'statementVerify',
  'subAccountIncidentRuns',
  'teamTest',
  'teamVerify',
  'teamStatus',
  'teamFound',
  'teamJoin',
  'teamLeave',
  'teamInvite',
  'teamJoinRehearsal',
] as const satisfies readonly ChannelName[];
export const CHANNEL_NAMES: ChannelName[] = [...CHANNELS];

/** The history lists: a page of records from the core's own cache, each asked by the same request shape. */
export const HISTORY_LISTS = [
  'withdrawalsList',
  'depositsList',
  'transfersList',
  'uidTransfersList',
] as const satisfies readonly ChannelName[];

/** Every event of the contract (shared/ipc.ts `events`), as EVENT_NAMES. */
const EVENTS_LISTED = [
  'vault',
  'approvals',
  'intent',
  'journal',
  'profiles',
  'history',
  'notify',
  'sandbox',
  'rateLimits',
  'link',
  'balancesProgress',
  'unreadRecords',
  'rebalance',
  'balanceAlert',
  'incident',
] as const satisfies readonly EventName[];
export const EVENT_NAMES: EventName[] = [...EVENTS_LISTED];

// A channel or an event of the contract missing above is a required property of these, so `{}` fails.
const everyChannelListed: Record<Exclude<ChannelName, (typeof CHANNELS)[number]>, never> = {};
const everyEventListed: Record<Exclude<EventName, (typeof EVENTS_LISTED)[number]>, never> = {};
void everyChannelListed;
void everyEventListed;

const EVENTS: ReadonlySet<string> = new Set(EVENT_NAMES);

export function isEventName(name: unknown): name is EventName {
  return typeof name === 'string' && EVENTS.has(name);
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
