import { z } from 'zod';

// Joining a team store from Settings (docs/team.md §Founding and joining). The password goes to the core and never comes back.

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

const TeamConnectionInput = {
  url: z.string().min(1, 'a postgresql:// URL').max(2000),
  password: z.string().max(1000).optional(),
};

/** The team store the active profile's governance uses, as Settings shows it: never its user or password. */
export const TeamStatus = z.object({
  /** The active profile's governance domain: the stored profiles' ('vault') or the Sandbox's; null while locked or without a profile. */
  domain: z.enum(['vault', 'sandbox']).nullable(),
  team: z
    .object({
      host: z.string(),
      database: z.string(),
      /** Founded or joined from Settings (as an auditor: read only), or given by whoever started the desk (a rehearsal's option). */
      how: z.enum(['founded', 'joined', 'audited', 'started']),
      /** The founding record's link this desk pinned (null until it read one). */
      founding: z.string().nullable(),
      /** Read and verified now; 'offline' or 'tampered' with the reason. */
      state: z.enum(['online', 'offline', 'tampered']),
      reason: z.string().nullable(),
      /** While tampered: the row refused, and the requests whose records (as last verified) sit at or after it. */
      tampered: z
        .object({
          seq: z.number().int().positive(),
          reason: z.string(),
          requests: z.array(z.object({ ref: z.string(), summary: z.string() })),
        })
        .optional(),
      /**
       * This desk's clock against the store's (the database's now()), as last measured: `offset_ms` positive
       * when the desk is ahead; `refusal` says, when it is too far off, that it writes no team record.
       */
      clock: z.object({ offset_ms: z.number().int(), refusal: z.string().nullable() }).optional(),
      /** The active profile's send leases (docs/team.md §Send leases), unfinished first. */
      leases: z
        .array(
          z.object({
            ref: z.string(),
            request: z.string(),
            state: z.enum(['open', 'expired', 'finished']),
            /** The desk holding it (a fingerprint, `desk-…`); `mine` when it is this desk. */
            owner: z.string(),
            mine: z.boolean(),
            /** How many times another desk took it over: the owner is the last to have. */
            taken_over: z.number().int().nonnegative(),
          }),
        )
        .optional(),
    })
    .nullable(),
});
export type TeamStatus = z.output<typeof TeamStatus>;

export const teamMembershipChannels = {
  /** Which team store the active profile's governance uses, and whether it can be read now. */
  teamStatus: { request: z.object({}).strict(), response: TeamStatus },
  /**
   * Founds a team in an empty store with this desk's governance records: a ticket that waits for the
   * desk's first operator in the confirmation window; the records are copied once they sign.
   */
  teamFound: {
    request: z.object(TeamConnectionInput).strict(),
    response: z.object({ ticket: z.string(), title: z.string() }),
  },
  /**
   * Joins the team in a store whose founding record is `founding` (the link the connection test showed and
   * the operator compared with the founding desk's). With operators in force here, one of them confirms in
   * the confirmation window (a ticket); on a Sandbox desk without operators it is joined at once.
   */
  teamJoin: {
    request: z
      .object({
        ...TeamConnectionInput,
        founding: z.string().regex(/^[0-9a-f]{64}$/, "the founding record's link, as the connection test shows it"),
      })
      .strict(),
    response: z.union([z.object({ joined: z.literal(true) }), z.object({ ticket: z.string(), title: z.string() })]),
  },
  /**
   * Leaves the team joined or founded from Settings: a ticket an operator of the team signs at this desk;
   * the domain's approvals then go back to the desk's own journal, and the team's queue is not seen here.
   * A membership joined as an auditor is left at once.
   */
  teamLeave: {
    request: z.object({}).strict(),
    // An auditor's membership, which hands the team nothing, is left at once.
    response: z.union([z.object({ left: z.literal(true) }), z.object({ ticket: z.string(), title: z.string() })]),
  },
} as const;
