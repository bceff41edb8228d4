import { z } from 'zod';
import { ENVIRONMENT_NAMES, PERMISSION_GROUPS } from './api/environments.ts';
import { TotalBalance, VALUATION_CURRENCIES } from './api/records.ts';
import { WRITE_KINDS, WriteRequest } from './api/writes.ts';

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
  environment: z.enum(ENVIRONMENT_NAMES as [string, ...string[]]),
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

export const ProfileInput = z.object({
  /** Absent for a new profile. */
  id: z.string().max(64).optional(),
  name: Name,
  environment: z.enum(['live', 'testnet', 'futures']),
  base_url: BaseUrl,
  svc: Svc,
  /** Absent when editing: the stored key and secret stay. */
  key: ApiKey.optional(),
  /** Absent when editing the same key: the stored secret stays. */
  secret: ApiSecret.optional(),
  permissions: Permissions,
  sub_keys: z.array(z.object({ uid: z.string().regex(/^\d{1,20}$/, 'a sub-account uid is digits'), key: ApiKey.optional(), secret: ApiSecret.optional() }).strict()).max(100),
}).strict().superRefine((p, ctx) => {
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

export const Settings = z.object({
  idle_lock_minutes: z.number().int().min(1).max(24 * 60),
  settle_seconds: z.number().int().min(5).max(600),
}).strict();
export type Settings = z.infer<typeof Settings>;

/** A write as the journal proves it stands (electron/core/journal/intents.ts explains each state). */
export const IntentView = z.object({
  id: z.string(),
  kind: z.enum(WRITE_KINDS),
  client_id: z.string().nullable(),
  body: z.record(z.string(), z.union([z.string(), z.number(), z.boolean()])),
  note: z.string().optional(),
  state: z.enum(['pending_approval', 'approved', 'in_flight', 'unconfirmed', 'accepted', 'done', 'refused', 'needs_attention', 'settled', 'cancelled']),
  created_at: z.number(),
  updated_at: z.number(),
  approved_by: z.string().optional(),
  attempts: z.number().int(),
  last_sent_at: z.number().optional(),
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
    request: z.object({ id: z.string().min(1).max(64), outcome: z.enum(['done', 'not_done']), note: z.string().trim().min(1).max(500) }).strict(),
    response: IntentView,
  },
  intentsList: {
    request: z.object({ unfinished_only: z.boolean().default(false) }).strict(),
    response: z.array(IntentView),
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
  totalBalance: {
    request: z.object({ currency: z.enum(VALUATION_CURRENCIES).default('USDT') }).strict(),
    response: TotalBalance,
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
  /** The active profile's journal changed state (found damaged, archived, a recovery shown or acknowledged). */
  journal: z.object({}).strict(),
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
