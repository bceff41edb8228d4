import { z } from 'zod';
// Zod's messages in words, for every schema of the contract (a side effect: installs them once).
import './zodWords.ts';
import { AlertView, LoadProgress } from './balances.ts';
import { HISTORY_KINDS } from './history.ts';
import { UnreadRecords } from './unread.ts';
import { IntentView } from './channels/writes.ts';
import { VaultStatus } from './channels/profiles.ts';
import { profilesChannels } from './channels/profiles.ts';
import { writesChannels } from './channels/writes.ts';
import { payoutsChannels } from './channels/payouts.ts';
import { approvalsChannels } from './channels/approvals.ts';
import { walletChannels } from './channels/wallet.ts';
import { balancesChannels } from './channels/balances.ts';
import { spotChannels } from './channels/spot.ts';
import { historyChannels } from './channels/history.ts';
import { rebalanceChannels } from './channels/rebalance.ts';
import { LinkState, RateLimits, statusChannels } from './channels/status.ts';
import { smallBalanceChannels } from './channels/smallBalance.ts';
import { subAccountsChannels } from './channels/subAccounts.ts';
import { teamChannels, teamMembershipChannels } from './channels/team.ts';
import { rehearsalChannels } from './channels/rehearsal.ts';
import { statementsChannels } from './channels/statements.ts';
export { TeamConnectionTest, TeamVerifyAnswer, TeamStatus } from './channels/team.ts';

export { PermissionLevel, Permissions, ProfileSummary, ProfileInput, baseUrlProblem, VaultStatus, Settings } from './channels/profiles.ts';
export { AUDITOR_NO_KEY, AuditorProfileInput } from './channels/profiles.ts';
export { FINISHED_INTENT_STATES } from './intentStates.ts';
export { IntentState, IntentView, JournalState, IntentCursor, IntentPage } from './channels/writes.ts';
export { BatchProgress, ApprovalItem, ApprovalsState, RequestStatus, Review } from './channels/approvals.ts';

// The IPC contract: every channel the renderer may call, with the schema its request must parse by
// before anything runs in the core, and the schema of its answer. Preload, hosts, core handlers and
// renderer hooks all derive from this one object. Each domain declares its channels in shared/channels/;
// this is the one place they merge, and the one module the rest of the desk imports the contract from.
export const channels = {
  ...profilesChannels,
  ...writesChannels,
  ...payoutsChannels,
  ...approvalsChannels,
  ...walletChannels,
  ...balancesChannels,
  ...spotChannels,
  ...historyChannels,
  ...rebalanceChannels,
  ...statusChannels,
  ...smallBalanceChannels,
  ...subAccountsChannels,
  ...teamChannels,
  ...teamMembershipChannels,
  ...rehearsalChannels,
  ...statementsChannels,
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
  /** `done`: it closes what an earlier notice of the same tag asked for (kept as read, shown nowhere else). */
  notify: z.object({ title: z.string(), body: z.string(), tag: z.string(), done: z.boolean().optional() }),
  /** The desk's supervisor saw its Sandbox stop, and started it again on the same port and data. */
  sandbox: z.object({ state: z.enum(['down', 'restarted']), at: z.number() }),
  /** Request buckets in use changed: sent in the window, queued, in flight, or paused after a 429. */
  rateLimits: RateLimits,
  /** The exchange answered (or failed to) a request of the desk's, after a change or a while. */
  link: LinkState,
  /** A balances load moved on (loaded / total requests). */
  balancesProgress: LoadProgress,
  /** The records set aside by the latest list answers changed: the new unreadRecords answer. */
  unreadRecords: UnreadRecords,
  /** A rebalance batch moved on (a transfer finished, paused, cancelled, drafted). */
  rebalance: z.object({ ref: z.string() }).strict(),
  /** A risk or low-balance alert was raised: a notification for the operator. */
  balanceAlert: AlertView,
  /** An incident sequence moved on (drafted, a step finished, held). */
  incident: z.object({ ref: z.string() }).strict(),
} as const;

export type Events = typeof events;

export type EventName = keyof Events;
export type EventPayload<E extends EventName> = z.output<Events[E]>;
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
  /** The exchange's §7 label, or the desk's own code (JOURNAL_DAMAGED, a vault code): shown only under "Details". */
  label: z.string().optional(),
  /** The raw text behind the sentence (the exchange's own message, the connection's error): shown only under "Details". */
  detail: z.string().max(2000).optional(),
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
