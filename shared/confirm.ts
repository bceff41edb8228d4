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
  /** Why signing is impossible now (locked, no profile), or null. */
  unavailable: z.string().nullable(),
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
  /** Proposes a new operator: their passphrase seals their new key; the proposer signs. It takes effect after the quorum and the cooling-off. */
  confirmProposeOperator: {
    request: z
      .object({
        name: OperatorName,
        new_passphrase: Passphrase,
        by: z.string().min(1).max(64),
        passphrase: z.string().min(1).max(1024),
        /** What they may sign; signed into the proposal. Absent: admin, as every operator before roles. */
        role: Role.optional(),
      })
      .strict(),
    response: z.object({ id: z.string() }),
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
