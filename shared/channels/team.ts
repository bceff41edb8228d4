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
} as const;
