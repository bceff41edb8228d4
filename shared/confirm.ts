import { z } from 'zod';
import { PolicyReplay } from './api/replay.ts';
import { Role } from './api/roles.ts';

// The confirmation window's own contract. Only the confirmation page's preload (Electron) or its own
// loopback origin (web host) can call these; the main window's contract (shared/ipc.ts) has no channel
// that takes an operator's passphrase or signs anything. Bodies are shown as the core holds them.

const Passphrase = z.string().min(10, 'an operator passphrase has at least 10 characters').max(1024);
const OperatorName = z.string().trim().min(1, 'a name is required').max(64);

export const ConfirmTicket = z.object({
  id: z.string(),
  action: z.enum(['draft', 'approve', 'reject', 'propose', 'freeze']),
  ref: z.string(),
  what: z.string(),
  profile: z.string().optional(),
  /** Exactly what will be signed (canonical JSON). */
  payload: z.string(),
  reason: z.string().optional(),
  title: z.string(),
  created_at: z.number(),
  /** A policy change: what it would have done with the last 30 days, beside what is signed. */
  replay: PolicyReplay.optional(),
});
export type ConfirmTicket = z.infer<typeof ConfirmTicket>;

export const ConfirmState = z.object({
  tickets: z.array(ConfirmTicket),
  operators: z.array(z.object({ id: z.string(), name: z.string() })),
  /** No operator yet: the first is created here, with the vault's credential unless the desk holds only play money. */
  first_operator: z.enum(['vault', 'none']).nullable(),
  /** The policy in force needs more signers than the operators can give: a recovery with the vault's credential is offered. */
  wedged: z.object({ why: z.string(), credential: z.enum(['vault', 'none']) }).nullable(),
  /** A recovery under way or done: when the default policy took or takes effect. */
  recovery: z.object({ effective_at: z.number(), reason: z.string() }).nullable(),
  /** Why signing is impossible now (locked, no profile), or null. */
  unavailable: z.string().nullable(),
  /** Tickets taken out lately because what they asked for holds already or their request closed, the newest first. */
  withdrawn: z.array(z.object({ id: z.string(), title: z.string(), why: z.string(), at: z.number() })),
});
export type ConfirmState = z.infer<typeof ConfirmState>;

export const confirmChannels = {
  confirmState: { request: z.object({}).strict(), response: ConfirmState },
  confirmSign: {
    request: z
      .object({ ticket: z.string().min(1).max(64), operator: z.string().min(1).max(64), passphrase: z.string().min(1).max(1024) })
      .strict(),
    response: z.object({ signed: z.literal(true), title: z.string() }),
  },
  confirmDecline: { request: z.object({ ticket: z.string().min(1).max(64) }).strict(), response: z.object({ declined: z.literal(true) }) },
  confirmCreateFirstOperator: {
    request: z.object({ name: OperatorName, passphrase: Passphrase, vault_passphrase: z.string().max(1024).optional() }).strict(),
    response: z.object({ id: z.string() }),
  },
  /** Recovers a wedged desk: frozen at once, the default policy and admins after the cooling-off. */
  confirmRecover: {
    request: z.object({ reason: z.string().trim().min(1, 'say why').max(500), vault_passphrase: z.string().max(1024).optional() }).strict(),
    response: z.object({ effective_at: z.number() }),
  },
  /**
   * Proposes a new operator, the proposer signing. Their key: sealed here by `new_passphrase`, or made at
   * their own desk (confirmMakeOperatorKey) and named by its `enrolment` code, with the
   * `enrolment_fingerprint` the new operator read to the proposer apart from the code (a relay that swapped
   * the key in the code cannot match it). It takes effect after the quorum and the cooling-off.
   */
  confirmProposeOperator: {
    request: z
      .object({
        name: OperatorName,
        new_passphrase: Passphrase.optional(),
        enrolment: z.string().trim().min(1, 'an enrolment code is required').max(400).optional(),
        enrolment_fingerprint: z.string().trim().min(1, 'type the fingerprint the new operator read to you').max(64).optional(),
        by: z.string().min(1).max(64),
        passphrase: z.string().min(1).max(1024),
        /** What they may sign; signed into the proposal. Absent: admin, as every operator before roles. */
        role: Role.optional(),
      })
      .strict()
      .refine((r) => (r.new_passphrase === undefined) !== (r.enrolment === undefined), {
        message: "give either the new operator's passphrase or the enrolment code from their desk, not both",
        path: ['enrolment'],
      })
      .refine((r) => (r.enrolment === undefined) === (r.enrolment_fingerprint === undefined), {
        message: 'an enrolment code goes with the fingerprint the new operator read to you from their desk',
        path: ['enrolment_fingerprint'],
      }),
    response: z.object({ id: z.string() }),
  },
  /** Makes a not-yet-proposed operator's key at their own desk; only its enrolment code (id and public key) leaves it. */
  confirmMakeOperatorKey: {
    request: z.object({ name: OperatorName, passphrase: Passphrase }).strict(),
    response: z.object({ id: z.string(), enrolment: z.string(), fingerprint: z.string() }),
  },
} as const;

export type ConfirmChannels = typeof confirmChannels;
export type ConfirmChannelName = keyof ConfirmChannels;
export const CONFIRM_CHANNEL_NAMES = Object.keys(confirmChannels) as ConfirmChannelName[];

export function isConfirmChannel(name: unknown): name is ConfirmChannelName {
  return typeof name === 'string' && Object.prototype.hasOwnProperty.call(confirmChannels, name);
}

export function wireConfirmChannel(name: ConfirmChannelName): string {
  return `confirm:${name}`;
}

/** The one event the confirmation page listens to: something changed, ask confirmState again. */
export const CONFIRM_EVENT = 'confirm-event:changed';

export type ConfirmReply<T> = { ok: true; data: T } | { ok: false; error: { kind: string; message: string } };
export type ConfirmApi = {
  [C in ConfirmChannelName]: (
    request: z.input<ConfirmChannels[C]['request']>,
  ) => Promise<ConfirmReply<z.output<ConfirmChannels[C]['response']>>>;
} & { onChanged(listener: () => void): () => void };
