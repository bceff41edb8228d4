import { z } from 'zod';

// What the status bar shows of the desk's link to the exchange and of its request budget: pushed as
// events when it changes, and asked for by a window when it mounts, so that a window opened late (or one
// that missed an event) is never left with a stale picture.

/** Request buckets in use: something sent in the current window, queued, in flight, or paused. */
export const RateLimits = z.object({
  buckets: z.array(
    z.object({
      key: z.string(),
      queued: z.number().int().nonnegative(),
      in_flight: z.number().int().nonnegative(),
      /** Requests counted in the current window (ours and others' the headers revealed). */
      used: z.number().int().nonnegative(),
      remaining: z.number().int(),
      limit: z.number().int().positive(),
      window_sec: z.number().positive(),
      paused_until_ms: z.number().nullable(),
      /** Why it is paused: the exchange answered 429, or its headers said the window's budget is spent. */
      pause_reason: z.enum(['too_many_requests', 'budget_spent']).nullable(),
    }),
  ),
});
export type RateLimits = z.output<typeof RateLimits>;

/** The outcome of the desk's latest requests to the exchange, whoever sent them (a page, a poll, a write). */
export const LinkState = z.object({
  /** Epoch ms of the last answer of any kind (accepted, refused, 429 or 5xx: the exchange answered). */
  last_answer_at: z.number().nullable(),
  /** The last request that got no answer at all (no connection, or none in time). */
  last_failure: z.object({ at: z.number(), title: z.string() }).nullable(),
});
export type LinkState = z.output<typeof LinkState>;

export const statusChannels = {
  /** The link and the budget as they stand now: what a window reads when it mounts, before any event. */
  deskStatus: {
    request: z.object({}).strict(),
    response: z.object({ link: LinkState, rate_limits: RateLimits }),
  },
  /**
   * The window painted the figures of the page it opened on (or said why it could not): the core's
   * background work held back for that paint may start (docs/performance.md §Opening the desk): the journal's reconciliation, the
   * history's first sync and the exchange's load of the kept figures it shows.
   */
  windowPainted: {
    request: z.object({}).strict(),
    response: z.object({}).strict(),
  },
} as const;
