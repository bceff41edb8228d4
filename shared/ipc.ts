import { z } from 'zod';
import { TotalBalance, VALUATION_CURRENCIES } from './api/records.ts';

// The IPC contract: every channel the renderer may call, with the schema its request must parse by
// before anything runs in the core, and the schema of its answer. Preload, hosts, core handlers and
// renderer hooks all derive from this one object.

export const ProfileSummary = z.object({
  name: z.string(),
  environment: z.enum(['live', 'testnet', 'futures', 'sandbox']),
  base_url: z.string(),
  key_masked: z.string(),
});
export type ProfileSummary = z.infer<typeof ProfileSummary>;

export const channels = {
  profileCurrent: {
    request: z.object({}).strict(),
    response: ProfileSummary,
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
