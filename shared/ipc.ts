import { z } from 'zod';
import { ENVIRONMENT_NAMES, OPERATOR_ENVIRONMENTS, PERMISSION_GROUPS } from './api/environments.ts';
import { Deposit, TotalBalance, VALUATION_CURRENCIES, Withdrawal } from './api/records.ts';
import { WriteKind, WriteRequest } from './api/writes.ts';

// The IPC contract: every channel the renderer may call, with the schema its request must parse by
// before anything runs in the core, and the schema of its answer. Preload, hosts, core handlers and
// renderer hooks all derive from this one object.

export const PermissionLevel = z.enum(['none', 'read', 'write']);
export const Permissions = z.object({
  ...Object.fromEntries(PERMISSION_GROUPS.map((g) => [g, PermissionLevel])) as Record<(typeof PERMISSION_GROUPS)[number], typeof PermissionLevel>,
  unified: z.boolean(),
}).strict();
export type Permissions = z.infer<typeof Permissions>;

const Name = z.string().trim().min(1, 'a name is required').max(64, 'at most 64 characters');
const ApiKey = z.string().trim().regex(/^[A-Za-z0-9]{8,128}$/, 'an API key is 8 to 128 letters and digits');
const ApiSecret = z.string().trim().regex(/^[A-Za-z0-9]{16,256}$/, 'an API secret is 16 to 256 letters and digits');
const BaseUrl = z.string().trim().url('a base address such as https://host/api/v4').refine((u) => /^https?:\/\//.test(u) && /\/api\/v4\/?$/.test(u), 'the base address must be http(s) and end in /api/v4');
const Svc = z.string().trim().regex(/^[A-Za-z][A-Za-z0-9]{0,31}$/, 'the service name is letters and digits, as in X-<name>-RateLimit-Limit');

export const ProfileSummary = z.object({
  id: z.string(),
  name: z.string(),
  environment: z.enum(ENVIRONMENT_NAMES),
  base_url: z.string(),
  svc: z.string(),
  key_masked: z.string(),
  permissions: Permissions,
  sub_keys: z.array(z.object({ uid: z.string(), key_masked: z.string() })),
  /** The Sandbox profile is built in: its keys come from the Sandbox, it cannot be edited or removed. */
  built_in: z.boolean(),
});
export type ProfileSummary = z.infer<typeof ProfileSummary>;

export const ProfileInput = z.object({
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
  sub_keys: z.array(z.object({ uid: z.string().regex(/^\d{1,20}$/, 'a sub-account uid is digits'), key: ApiKey.optional(), secret: ApiSecret.optional() }).strict()).max(100),
}).strict();
export type ProfileInput = z.infer<typeof ProfileInput>;

export const VaultStatus = z.object({
  locked: z.boolean(),
  /** How secrets are kept: the OS keychain through Electron, or a passphrase; null until a secret is stored. */
  backend: z.enum(['safeStorage', 'passphrase']).nullable(),
  passphrase_set: z.boolean(),
  /** Why the OS keychain is not used, when it is not. */
  keychain_note: z.string().nullable(),
});
export type VaultStatus = z.infer<typeof VaultStatus>;

export const Settings = z.object({
  idle_lock_minutes: z.number().int().min(1).max(24 * 60),
  settle_seconds: z.number().int().min(5).max(600),
}).strict();
export type Settings = z.infer<typeof Settings>;

/** Where a write stands (electron/core/journal/intents.ts explains each state). */
export const IntentState = z.enum(['pending_approval', 'approved', 'in_flight', 'unconfirmed', 'accepted', 'done', 'refused', 'needs_attention', 'settled', 'cancelled']);
export type IntentState = z.infer<typeof IntentState>;
/** States after which nothing more happens to a write. */
export const FINISHED_INTENT_STATES: ReadonlySet<IntentState> = new Set(['done', 'refused', 'settled', 'cancelled']);

/** A write as the journal proves it stands: the one declaration of the shape, used by the core's journal too. */
export const IntentView = z.object({
  id: z.string(),
  kind: WriteKind,
  client_id: z.string().nullable(),
  body: z.record(z.string(), z.union([z.string(), z.number(), z.boolean()])),
  note: z.string().optional(),
  state: IntentState,
  created_at: z.number(),
  updated_at: z.number(),
  approved_by: z.string().optional(),
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

/** A keyset cursor into the exchange's records as the desk keeps them, newest first (§2.3 `timestamp`, `id`). */
export const RecordCursor = z.object({ timestamp: z.number(), id: z.string().min(1).max(64) }).strict();
export type RecordCursor = z.infer<typeof RecordCursor>;

const HistoryRequest = z.object({ after: RecordCursor.optional(), limit: z.number().int().min(1).max(500).default(100) }).strict();
const historyPage = <S extends z.ZodType>(record: S) => z.object({
  items: z.array(record),
  next: RecordCursor.nullable(),
  /** Server time (Unix seconds) up to which the desk has read the exchange's records. */
  synced_to: z.number().nullable(),
});

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
  vaultSetPassphrase: {
    request: z.object({ current: z.string().max(1024).optional(), next: Passphrase }).strict(),
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
    request: z.object({ id: z.string().min(1).max(64), outcome: z.enum(['done', 'not_done']), note: z.string().trim().min(1).max(500) }).strict(),
    response: IntentView,
  },
  /** One page of the journal, newest first, after the cursor (the first page without one). */
  intentsList: {
    request: z.object({
      unfinished_only: z.boolean().default(false),
      after: IntentCursor.optional(),
      limit: z.number().int().min(1).max(500).default(100),
    }).strict(),
    response: IntentPage,
  },
  totalBalance: {
    request: z.object({ currency: z.enum(VALUATION_CURRENCIES).default('USDT') }).strict(),
    response: TotalBalance,
  },
  /**
   * The last year of withdrawals, one page, newest first. The first page (no cursor) first brings the
   * desk's copy up to date (a warm read costs two requests); later pages read that same copy.
   */
  withdrawalsList: {
    request: HistoryRequest,
    response: historyPage(Withdrawal),
  },
  depositsList: {
    request: HistoryRequest,
    response: historyPage(Deposit),
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
  /** A write changed state (journaled first, then told). */
  intent: IntentView,
  /** The profiles changed (saved, removed, selected, or a permission corrected by the exchange's answer). */
  profiles: z.object({ active_id: z.string().nullable() }),
  /** Request buckets that are busy: something queued, nearly spent, or paused after a 429. */
  rateLimits: z.object({
    buckets: z.array(z.object({
      key: z.string(),
      queued: z.number().int().nonnegative(),
      remaining: z.number().int(),
      limit: z.number().int().positive(),
      paused_until_ms: z.number().nullable(),
    })),
  }),
} as const;

export type Events = typeof events;

/**
 * Which channels' answers each event makes stale. The renderer refetches exactly these (an `intent`
 * event's payload is itself written into the cached intentsList pages, so that list is not refetched).
 */
export const STALE_AFTER_EVENT = {
  vault: ['vaultStatus', 'profileCurrent', 'profilesList', 'totalBalance', 'intentsList', 'withdrawalsList', 'depositsList'],
  intent: ['totalBalance', 'withdrawalsList'],
  profiles: ['profileCurrent', 'profilesList', 'totalBalance', 'intentsList', 'withdrawalsList', 'depositsList'],
  rateLimits: [],
} as const satisfies { [E in EventName]: readonly ChannelName[] };

/**
 * Which channels' answers a successful call makes stale, beyond what the events it causes already
 * say (a write's progress arrives as `intent` events; a profile change as a `profiles` event).
 */
export const STALE_AFTER_CALL = {
  profileCurrent: [], profilesList: [], profileSave: [], profileRemove: [], profileSelect: [],
  vaultStatus: [], vaultUnlock: ['vaultStatus'], vaultLock: ['vaultStatus'], vaultSetPassphrase: ['vaultStatus'],
  userActive: [], settingsGet: [], settingsSave: ['settingsGet'],
  writePrepare: [], writeApprove: [], writeCancel: [], writeSettle: [], intentsList: [], totalBalance: [],
  withdrawalsList: [], depositsList: [],
} as const satisfies { [C in ChannelName]: readonly ChannelName[] };
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

export const DeskErrorBody = z.object({
  kind: DeskErrorKind,
  message: z.string(),
  label: z.string().optional(),
  /** The path inside the request that failed validation, for forms to highlight. */
  path: z.array(z.union([z.string(), z.number()])).optional(),
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
