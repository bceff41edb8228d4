import { z } from 'zod';

// Joining a team store from Settings (issue 27). The password goes to the core and never comes back.

export const TeamConnectionTest = z.discriminatedUnion('reached', [
  z.object({
    reached: z.literal(true),
    /** The PostgreSQL server's version. */
    server: z.string(),
    /** An empty store (a team to found), or a team's: its records and its founding record's link, to compare. */
    team: z.union([z.object({ records: z.literal(0) }), z.object({ records: z.number().int().positive(), founding: z.string() })]),
  }),
  z.object({ reached: z.literal(false), reason: z.string() }),
]);
export type TeamConnectionTest = z.output<typeof TeamConnectionTest>;

/**
 * Verify of a team's records: every row read again and verified from the pinned founding record on (the
 * chain of links, desk signatures and certificates, operator signatures and quorums). `team: false` when
 * the active profile's approvals are not on a team store.
 */
export const TeamVerifyAnswer = z.discriminatedUnion('team', [
  z.object({ team: z.literal(false) }),
  z.object({
    team: z.literal(true),
    /** Rows that verified, from the first on. */
    verified: z.number().int().nonnegative(),
    /** Rows the store holds. */
    rows: z.number().int().nonnegative(),
    /** The link (SHA-256) of the last row that verified, null when none did. */
    last_link: z.string().nullable(),
    /** The founding record's link this desk pinned when it first read the team (null before). */
    founding: z.string().nullable(),
    /** The first row refused, with why: nothing it would authorise is sent. */
    refused: z.object({ seq: z.number().int().positive(), reason: z.string() }).nullable(),
  }),
]);
export type TeamVerifyAnswer = z.output<typeof TeamVerifyAnswer>;

export const teamChannels = {
  /** Connects once to a team store and says what it found, or why it could not; writes nothing. */
  teamTest: {
    request: z
      .object({
        url: z.string().min(1, 'a postgresql:// URL').max(2000),
        password: z.string().max(1000).optional(),
      })
      .strict(),
    response: TeamConnectionTest,
  },
  /** Reads the team store again and verifies every row of it; writes nothing. */
  teamVerify: {
    request: z.object({}).strict(),
    response: TeamVerifyAnswer,
  },
} as const;
