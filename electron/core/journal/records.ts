import { z } from 'zod';
import { Decision } from '../../../shared/api/policy.ts';
import { WRITE_KINDS } from '../../../shared/api/writes.ts';

// One JSON line per record. Records describe what the desk decided and what the exchange answered;
// they never carry a key, a secret or a passphrase (the request bodies journaled hold only the
// fields that go on the wire, and no write body of the API holds a credential).

export const INTENT_KINDS = WRITE_KINDS;
export type IntentKind = (typeof INTENT_KINDS)[number];

const Kind = z.enum(INTENT_KINDS);
const IntentId = z.string().min(1).max(64);
const Scalar = z.union([z.string(), z.number(), z.boolean()]);

/** An operator's Ed25519 signature over operators/keys.ts signedText(): who agreed to exactly this. */
export const OperatorSignature = z.strictObject({
  action: z.enum(['draft', 'approve', 'reject', 'propose', 'freeze', 'create']),
  operator: z.string().min(1).max(64),
  name: z.string().min(1).max(64),
  signature: z.string().min(1).max(200),
});
export type OperatorSignature = z.infer<typeof OperatorSignature>;

const intent = z.strictObject({
  type: z.literal('intent'),
  intent: IntentId,
  kind: Kind,
  /** withdraw_order_id or client_order_id; null for the kinds the API gives no id. */
  client_id: z.string().nullable(),
  /** The JSON body as it goes on the wire. */
  body: z.record(z.string(), Scalar),
  /** The sub-account whose key signs (kinds signed by a sub-account's key); absent: the main key. */
  signer: z
    .string()
    .regex(/^\d{1,18}$/)
    .optional(),
  note: z.string().max(500).optional(),
  /** The drafter's and approvers' signatures, copied from the governance store when a request is sent. */
  signatures: z.array(OperatorSignature).max(11).optional(),
  /** The policy, rule and quorum that approved it, copied with the signatures (older journals lack it). */
  decided: Decision.optional(),
});
const approval = z.strictObject({ type: z.literal('approval'), intent: IntentId, by: z.string().max(200) });
const cancelled = z.strictObject({ type: z.literal('cancelled'), intent: IntentId, reason: z.string().max(500) });
/**
 * Written (and fsync'd) before the request leaves: without it the request certainly never left. `deadline`
 * is when the client aborts it and after which it never leaves the queue (older journals lack it).
 */
const sent = z.strictObject({
  type: z.literal('sent'),
  intent: IntentId,
  attempt: z.number().int().min(1),
  deadline: z.iso.datetime().optional(),
});
/**
 * The outcome is not known. `until`: before it, an attempt may still reach the exchange, so "absent"
 * proves nothing (docs/failure-modes.md §In doubt). Attempt 0: an earlier run or desk may have sent it.
 */
const unconfirmed = z.strictObject({
  type: z.literal('unconfirmed'),
  intent: IntentId,
  attempt: z.number().int().min(0),
  reason: z.string().max(500),
  until: z.iso.datetime().optional(),
});
/**
 * A second exchange record under the write's own id, found by reconciliation: the cancellation asked for
 * (`cancel_asked`, with the exchange's answer status) or why none could be (`left`, for an operator).
 */
const duplicate = z.strictObject({
  type: z.literal('duplicate'),
  intent: IntentId,
  exchange_id: z.string().min(1).max(64),
  action: z.enum(['cancel_asked', 'left']),
  status: z.string().max(32).optional(),
  reason: z.string().max(500),
});
/**
 * A lookup that did not find the id; the span of these decides when a resend is allowed. `asked_at` is
 * when the lookup left: the exchange's "absent" holds from at least then, so spans are measured from
 * the first lookup's answer (the record's time) to the last lookup's asking, never longer than proven.
 */
const lookup = z.strictObject({
  type: z.literal('lookup'),
  intent: IntentId,
  found: z.literal(false),
  asked_at: z.iso.datetime(),
});
/** The exchange refused without applying (429): the intent is ready to be sent again. */
const retry = z.strictObject({ type: z.literal('retry'), intent: IntentId, reason: z.string().max(500) });
const result = z.strictObject({
  type: z.literal('result'),
  intent: IntentId,
  outcome: z.enum(['accepted', 'refused']),
  via: z.enum(['response', 'lookup', 'records']),
  exchange_id: z.string().optional(),
  status: z.string().optional(),
  http_status: z.number().int().optional(),
  label: z.string().optional(),
  message: z.string().max(1000).optional(),
});
const status = z.strictObject({ type: z.literal('status'), intent: IntentId, status: z.string(), final: z.boolean() });
const needsAttention = z.strictObject({ type: z.literal('needs_attention'), intent: IntentId, reason: z.string().max(1000) });
const settled = z.strictObject({
  type: z.literal('settled'),
  intent: IntentId,
  by: z.string().max(200),
  outcome: z.enum(['done', 'not_done']),
  note: z.string().max(1000),
});

// Governance records: operators, requests awaiting a quorum, approvals, policy changes and freezes. They
// live in the desk's governance journal (electron/core/approvals/localStore.ts), name a `ref` rather than
// an intent, and each carries the acting operator's signature; the same MAC chain authenticates them.
const Ref = z.string().min(1).max(64);
const operatorCreated = z.strictObject({
  type: z.literal('operator_created'),
  ref: Ref,
  name: z.string().min(1).max(64),
  public_key: z.string().min(1).max(200),
  /** What let this first operator in: the vault's credential, or nothing on a Sandbox-only desk. */
  credential: z.enum(['vault', 'none']),
  signed: OperatorSignature,
});
const proposal = z.strictObject({
  type: z.literal('proposal'),
  ref: Ref,
  what: z.enum(['request', 'batch', 'add_operator', 'remove_operator', 'set_role', 'remove_address', 'policy', 'unfreeze']),
  /** The profile a request or a policy is for. */
  profile: z.string().max(64).optional(),
  /** Canonical JSON of what is proposed (a request's kind and wire body, a batch's rows, an operator, a policy). */
  payload: z.string().max(2_000_000),
  signed: OperatorSignature,
  /** On the record that decided it (approved at once, or its last needed signature, or its rejection): what judged it then. */
  decided: Decision.optional(),
});
const signoff = z.strictObject({ type: z.literal('signoff'), ref: Ref, signed: OperatorSignature, decided: Decision.optional() });
const rejection = z.strictObject({
  type: z.literal('rejection'),
  ref: Ref,
  reason: z.string().min(1).max(500),
  signed: OperatorSignature,
  decided: Decision.optional(),
});
const freeze = z.strictObject({ type: z.literal('freeze'), ref: Ref, reason: z.string().max(500), signed: OperatorSignature });
/**
 * A wedged desk's way out, when no quorum can be reached (an older desk's data): no operator can sign
 * it, so what lets it in is the vault's credential (or nothing on a Sandbox-only desk), checked at the
 * door. It freezes the desk at once and, after its cooling-off, puts the default policy in force and
 * makes every operator in force an admin; an operator then unfreezes and repairs the policy.
 */
const recovery = z.strictObject({
  type: z.literal('recovery'),
  ref: Ref,
  credential: z.enum(['vault', 'none']),
  reason: z.string().min(1).max(500),
  cooling_off_ms: z.number().int().nonnegative(),
});
/** A request handed to its profile's journal (intent id = ref): written after the intent, so a crash between is found and finished. */
const dispatched = z.strictObject({ type: z.literal('dispatched'), ref: Ref, profile: z.string().max(64) });

/**
 * A statement the desk issued (statements/issue.ts): the SHA-256 of the very bytes handed out, so that
 * Verify can later tell that file from one with a changed figure. It names no intent and moves nothing.
 */
const statementIssued = z.strictObject({
  type: z.literal('statement_issued'),
  sha256: z.string().regex(/^[0-9a-f]{64}$/),
  filename: z.string().min(1).max(200),
  format: z.enum(['csv', 'pdf']),
  account: z.string().min(1).max(64),
  currency: z.string().min(1).max(20),
  from: z.number().int().nonnegative(),
  to: z.number().int().positive(),
  closing: z.string().max(64),
  difference: z.string().max(64),
  by: z.string().max(200),
});

export const ISSUED_TYPES = ['statement_issued'] as const;

export const GOVERNANCE_TYPES = ['operator_created', 'proposal', 'signoff', 'rejection', 'freeze', 'dispatched', 'recovery'] as const;

export const RecordBody = z.discriminatedUnion('type', [
  intent,
  approval,
  cancelled,
  sent,
  unconfirmed,
  lookup,
  retry,
  result,
  status,
  needsAttention,
  settled,
  duplicate,
  operatorCreated,
  proposal,
  signoff,
  rejection,
  freeze,
  dispatched,
  recovery,
  statementIssued,
]);
export type RecordBody = z.infer<typeof RecordBody>;
export type RecordType = RecordBody['type'];
export type GovernanceBody = Extract<RecordBody, { type: (typeof GOVERNANCE_TYPES)[number] }>;
export type IssuedBody = Extract<RecordBody, { type: (typeof ISSUED_TYPES)[number] }>;
export type IntentBody = Exclude<RecordBody, GovernanceBody | IssuedBody>;
export type IssuedRecord = IssuedBody & RecordMeta;
export type GovernanceRecord = GovernanceBody & RecordMeta;

export function isGovernance(r: RecordBody): r is GovernanceBody {
  return (GOVERNANCE_TYPES as readonly string[]).includes(r.type);
}

/** A record of something the desk issued (a statement): no intent's, no governance's. */
export function isIssued(r: RecordBody): r is IssuedBody {
  return (ISSUED_TYPES as readonly string[]).includes(r.type);
}

/** What sits on each line besides the body: position, time, and the authenticated chain. */
export interface RecordMeta {
  seq: number;
  /** ISO-8601 time the record was written (the desk's clock). */
  at: string;
  /** The previous entry's MAC; for the first, the journal's genesis value (journal/mac.ts). */
  prev: string;
  /** HMAC-SHA256 under the journal key of the journal's name and this line's text without its mac field. */
  mac: string;
}

export type JournalRecord = IntentBody & RecordMeta;
export type AnyRecord = RecordBody & RecordMeta;
