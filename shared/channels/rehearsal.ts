import { z } from 'zod';

// Rehearsing a team across two desks (docs/team.md §Rehearsing a team): the first desk's "Invite a desk"
// makes one code (shared/rehearsal.ts); the second desk's "Join a rehearsal" takes it.

export const rehearsalChannels = {
  /**
   * From a desk on its own Sandbox: a new key pair of its main account that its Sandbox makes through its
   * admin API, with the Sandbox's address and the team store it uses (no password), as one code to copy.
   * Refused on any profile but the built-in Sandbox one: a live key never goes into an invitation.
   */
  teamInvite: {
    request: z.object({}).strict(),
    response: z.object({
      invitation: z.string(),
      /** The Sandbox's base address the code leads to. */
      sandbox: z.string(),
      /** The team store in the code (host and database), null while this desk is in no team. */
      team: z.object({ host: z.string(), database: z.string() }).nullable(),
    }),
  },
  /**
   * At a second desk: its built-in Sandbox profile from now on trades on the first desk's Sandbox with the
   * code's key (kept in `rehearsal.json`, like the Sandbox's own credentials.json), and, when the code names
   * a team store, it joins that team (its founding record pinned from the code) with `password`.
   */
  teamJoinRehearsal: {
    request: z
      .object({
        invitation: z.string().min(1, 'the code "Invite a desk" showed at the first desk').max(8000),
        password: z.string().max(1000).optional(),
      })
      .strict(),
    response: z.object({
      sandbox: z.string(),
      /** Joined now; already this team's; waiting for an operator's signature (a ticket); or no team in the code. */
      team: z.union([z.enum(['joined', 'already']), z.object({ ticket: z.string(), title: z.string() }), z.null()]),
    }),
  },
} as const;
