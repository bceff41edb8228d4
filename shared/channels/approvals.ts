import { z } from 'zod';
import { AddressBookAdded, AddressBookAddRequest, AddressBookEntryView, RemovedEntry } from '../addressBook.ts';
import { BatchStatus } from '../api/batch.ts';
import { IntentView } from './writes.ts';
import { Decision, Policy, Verdict } from '../api/policy.ts';
import { Role } from '../api/roles.ts';
import { PolicyReplay } from '../api/replay.ts';
import { WRITE_KINDS, WriteRequest } from '../api/writes.ts';

// Operators, policy, requests and approvals, and the address book they govern.

/** A batch and where each of its rows stands: the intent the journal holds under the row's id, or null before it is handed over. */
export const BatchProgress = BatchStatus.extend({ intents: z.array(IntentView.nullable()) });
export type BatchProgress = z.infer<typeof BatchProgress>;

/** A request or change waiting for approvals, as the Approvals page shows it. */
export const ApprovalItem = z.object({
  ref: z.string(),
  what: z.enum(['request', 'batch', 'add_operator', 'remove_operator', 'set_role', 'remove_address', 'policy', 'unfreeze']),
  profile: z.string().optional(),
  kind: z.string().optional(),
  body: z.record(z.string(), z.union([z.string(), z.number()])).optional(),
  /** The sub-account whose key signs the request; absent: the main key. */
  signer: z.string().optional(),
  verdict: Verdict.optional(),
  /** What a change proposes, in words. */
  summary: z.string(),
  drafted_by: z.string(),
  drafted_at: z.number(),
  approved_by: z.array(z.string()),
  needed: z.number().int(),
  state: z.enum(['waiting', 'cooling_off', 'in_force', 'sent', 'approved', 'rejected', 'expired']),
  /** When a request or batch expires if not approved by then (null for changes). */
  expires_at: z.number().nullable(),
  effective_at: z.number().nullable(),
  rejected: z.object({ by: z.string(), reason: z.string() }).nullable(),
  /**
   * What judged it when it was decided (approved, sent, in force, rejected; an expired one: at its expiry),
   * as recorded then: null for one decided by a record from before decisions were recorded; absent while
   * it waits (then `verdict` and `needed` say what it needs now).
   */
  decided: Decision.nullable().optional(),
  /** On a team store: the desk it was drafted at, and each signature's desk (drafter first); `here` marks this desk. */
  desks: z
    .object({
      drafted: z.string(),
      signed: z.array(z.object({ name: z.string(), desk: z.string() })),
      here: z.string().nullable(),
    })
    .optional(),
});
export type ApprovalItem = z.infer<typeof ApprovalItem>;

export const ApprovalsState = z.object({
  operators: z.array(
    z.object({
      id: z.string(),
      name: z.string(),
      state: z.enum(['in_force', 'pending', 'removed']),
      /** What they may sign now, and once approved role changes take effect. */
      role: Role,
      role_ahead: Role,
    }),
  ),
  /** No operator yet: the first is created in the confirmation window. */
  needs_first_operator: z.boolean(),
  policy: z.object({
    rules: Policy.shape.rules,
    request_expiry_hours: Policy.shape.request_expiry_hours,
    ref: z.string().nullable(),
    refused: z.string().nullable(),
  }),
  change_quorum: z.number().int(),
  /**
   * How far the policy in force is from wedging the desk: the requirement needing the most distinct
   * operators, how many can sign (approved removals left out), and how many could be lost before it wedges.
   */
  resilience: z.object({
    strictest: z.string(),
    needs: z.number().int(),
    signers: z.number().int(),
    margin: z.number().int(),
    /** The operators able to meet it: losing any margin + 1 of them wedges the desk. */
    able: z.array(z.string()),
  }),
  cooling_off_hours: z.number(),
  /** The cooling-off comes from TREASURY_DESK_COOLING_OFF_HOURS, which only the Sandbox profile heeds. */
  cooling_off_variable: z.boolean().optional(),
  frozen: z.object({ by: z.string(), at: z.number(), reason: z.string() }).nullable(),
  items: z.array(ApprovalItem),
  /** Why nothing can be drafted right now (locked desk, read-only key, refused policy), or null. */
  blocked: z.string().nullable(),
  /** Why this desk signs and sends nothing (a team's auditor desk); absent on every other desk. */
  read_only: z.string().optional(),
});
export type ApprovalsState = z.infer<typeof ApprovalsState>;

export const Review = z.object({
  kind: z.enum(WRITE_KINDS),
  /** The wire body as it will be sent (its id is set when it is drafted). */
  body: z.record(z.string(), z.union([z.string(), z.number()])),
  /** The sub-account whose key will sign it; absent: the profile's main key. */
  signer: z.string().optional(),
  verdict: Verdict,
  destination_note: z.string().nullable(),
});
export type Review = z.infer<typeof Review>;

const Ticket = z.object({ ticket: z.string(), title: z.string() });

/**
 * One drafted request from its draft to its end, as the page that drafted it follows it: the confirmation
 * window's signature, the approvals, the hand-over, then the journal's intent (sent, the exchange's answer,
 * its final status). `gone`: no longer waiting for its drafter's signature and never signed (declined, or
 * the desk restarted): nothing of it exists.
 */
export const RequestStatus = z.object({
  ref: z.string(),
  state: z.enum(['to_sign', 'gone', 'waiting', 'approved', 'sent', 'rejected', 'expired']),
  /** When it expires if not approved by then; null once it is, or before it is signed. */
  expires_at: z.number().nullable(),
  approved_by: z.array(z.string()),
  needed: z.number().int(),
  rejected: z.object({ by: z.string(), reason: z.string() }).nullable(),
  /** What decided it, as recorded then (null: decided before decisions were recorded); absent while it waits. */
  decided: Decision.nullable().optional(),
  intent: IntentView.nullable(),
});
export type RequestStatus = z.infer<typeof RequestStatus>;

export const approvalsChannels = {
  /** Operators, the policy in force, the queue of requests and changes, freeze. */
  approvalsState: {
    request: z.object({}).strict(),
    response: ApprovalsState,
  },
  /** The policy's verdict, rule by rule, on a write and exactly what would be sent; nothing is stored. */
  approvalsReview: {
    request: z.object({ write: WriteRequest }).strict(),
    response: Review,
  },
  /**
   * Asks for a signed draft: the confirmation window shows the body the core built and an operator signs
   * it there. Nothing here takes a passphrase or signs; a blocked write gets no ticket.
   */
  approvalsDraft: {
    request: z.object({ write: WriteRequest, note: z.string().max(500).optional() }).strict(),
    /** `ref` is the request's id from here on: its approvals, its intent in the journal, its client id. */
    response: Ticket.extend({ ref: z.string() }),
  },
  /** A drafted request as it stands (requestStatus explains each state). */
  requestStatus: {
    request: z.object({ ref: z.string().min(1).max(64) }).strict(),
    response: RequestStatus,
  },
  /** A batch (payouts, a rebalance) as its approvals stand, with each row as the journal holds it (absent: not sent yet). */
  batchStatus: {
    request: z.object({ ref: z.string().min(1).max(64) }).strict(),
    response: BatchProgress.nullable(),
  },
  /** Asks the confirmation window for an approval or a rejection (with its reason) of a request or change. */
  approvalsDecide: {
    request: z
      .object({
        ref: z.string().min(1).max(64),
        action: z.enum(['approve', 'reject']),
        reason: z.string().trim().min(1).max(500).optional(),
      })
      .strict(),
    response: Ticket,
  },
  /** A proposed policy replayed against the last 30 days, beside the policy in force; nothing is stored. */
  policyReplay: {
    request: z.object({ policy: Policy }).strict(),
    response: PolicyReplay,
  },
  approvalsProposePolicy: {
    request: z.object({ policy: Policy }).strict(),
    response: Ticket,
  },
  /** A role change for an operator in force: the change quorum, then the cooling-off. */
  approvalsSetRole: {
    request: z.object({ id: z.string().min(1).max(64), role: Role }).strict(),
    response: Ticket,
  },
  approvalsRemoveOperator: {
    request: z.object({ id: z.string().min(1).max(64) }).strict(),
    response: Ticket,
  },
  /** Any operator, no quorum: asks the confirmation window for one signature. */
  approvalsFreeze: {
    request: z.object({ reason: z.string().trim().max(500).default('') }).strict(),
    response: Ticket,
  },
  approvalsUnfreeze: {
    request: z.object({}).strict(),
    response: Ticket,
  },
  /** The desk's own address book: each entry signed by an operator; it counts once the cooling-off is over and its signature verifies. */
  addressBookList: {
    request: z.object({}).strict(),
    response: z.array(AddressBookEntryView),
  },
  /** Opens a confirmation-window ticket: the entry exists once an operator signs it there. */
  /** Asks the confirmation window to propose an entry's removal: the change quorum, effective once approved. */
  addressBookRemove: {
    request: RemovedEntry,
    response: Ticket,
  },
  addressBookAdd: {
    request: AddressBookAddRequest,
    response: AddressBookAdded,
  },
} as const;
