import type { BatchPayload } from '../../../shared/api/batch.ts';
import type { Decision, Verdict } from '../../../shared/api/policy.ts';
import type { OperatorSignature } from '../journal/records.ts';
import type { ScryptParams } from '../vault/crypto.ts';
import { containOnly } from '../governance/management.ts';
import {
  countedApprovers,
  decisionAt,
  deskQuorum,
  expiresAt,
  isExpired,
  quorumOf,
  stillApproved,
  verdictAt,
} from '../governance/quorum.ts';
import { activeOperators, type GovernanceRules, type GovernanceState, type Proposal } from '../governance/state.ts';
import { GovernanceLedger } from './ledger.ts';
import { OperatorChanges } from './operatorChanges.ts';
import { PolicyCopy, type PolicyStatus } from './policyCopy.ts';
import { OperatorSigning } from './signing.ts';
import type { GovernanceStore, SendLeases, StoreAudit } from './store.ts';
import { TicketBook, type Ticket, type WithdrawnTicket } from './tickets.ts';

// What the desk does with one governance store: tickets waiting for a signature in the confirmation
// window (tickets.ts), signing with an operator's passphrase (signing.ts), the operators themselves
// (operatorChanges.ts), the policy in force per profile and its copy on disk (policyCopy.ts), all over
// the records as this desk holds them (ledger.ts); and, here, what the records say of each request and
// which approved requests are ready to be sent. This class puts the parts together and speaks for them.

export type { DetachedSignature, Ticket, WithdrawnTicket } from './tickets.ts';
export type { NewOperatorKey } from './operatorChanges.ts';
export type { PolicyStatus } from './policyCopy.ts';

export interface ApprovalsOptions {
  store: GovernanceStore;
  rules: GovernanceRules;
  /** Whether this desk's first operator needs the vault's credential (false on a Sandbox-only desk). */
  credential: 'vault' | 'none';
  now?: () => number;
  scrypt?: ScryptParams;
  /** A ticket now waits in the confirmation window for an operator's signature. */
  onTicket?: (t: Ticket) => void;
  /** A ticket left the confirmation window: signed, declined, or withdrawn with why (tickets.ts). */
  onClosed?: (t: Ticket, outcome: { withdrawn: boolean; why: string }) => void;
  /**
   * Another desk changed the records of a shared store and they were read again (error: null), or the
   * read failed (a tampered row, the store unreachable): then nothing governed is sent until a read succeeds.
   */
  onRecordsChanged?: (error: Error | null) => void;
  /**
   * Why this desk signs nothing (an auditor desk): every ticket, signature and record is refused with it.
   * A function is asked each time: the active profile may be an auditor's (domains.ts).
   */
  readOnly?: string | (() => string | null);
}

/** Batches the dispatcher sends row by row (a rebalance's rows are sent by its own runner). */
const DISPATCHED_BATCHES: ReadonlySet<string> = new Set(['payouts', 'small_balance']);

export class Approvals {
  private readonly now: () => number;
  private readonly ledger: GovernanceLedger;
  private readonly policy: PolicyCopy;
  private readonly tickets: TicketBook;
  private readonly signing: OperatorSigning;
  private readonly operators: OperatorChanges;

  constructor(private readonly opts: ApprovalsOptions) {
    this.now = opts.now ?? Date.now;
    const { store, rules } = opts;
    const now = this.now;
    this.ledger = new GovernanceLedger({
      store,
      rules,
      now,
      ...(opts.onRecordsChanged ? { onRecordsChanged: opts.onRecordsChanged } : {}),
      ...(opts.readOnly !== undefined ? { readOnly: opts.readOnly } : {}),
    });
    const parts = { store, rules, now, ledger: this.ledger };
    this.policy = new PolicyCopy(parts);
    this.tickets = new TicketBook({
      ...parts,
      policy: this.policy,
      ...(opts.onTicket ? { onTicket: opts.onTicket } : {}),
      ...(opts.onClosed ? { onClosed: opts.onClosed } : {}),
    });
    this.signing = new OperatorSigning({ ...parts, tickets: this.tickets });
    this.operators = new OperatorChanges({
      ...parts,
      signing: this.signing,
      credential: opts.credential,
      ...(opts.scrypt ? { scrypt: opts.scrypt } : {}),
    });
  }

  get credential(): 'vault' | 'none' {
    return this.opts.credential;
  }

  load(): Promise<GovernanceState> {
    return this.ledger.load();
  }

  /** The state as last loaded, for synchronous checks (the executor's "may I send now?"). */
  cached(): GovernanceState | null {
    return this.ledger.cached();
  }

  /** Why this desk signs nothing, or null. */
  get readOnly(): string | null {
    return this.ledger.readOnly;
  }

  // ---- operators (operatorChanges.ts) ----

  createFirstOperator(...a: Parameters<OperatorChanges['createFirstOperator']>): Promise<string> {
    return this.operators.createFirstOperator(...a);
  }
  proposeOperator(...a: Parameters<OperatorChanges['proposeOperator']>): Promise<string> {
    return this.operators.proposeOperator(...a);
  }
  makeOwnKey(...a: Parameters<OperatorChanges['makeOwnKey']>): ReturnType<OperatorChanges['makeOwnKey']> {
    return this.operators.makeOwnKey(...a);
  }
  wedged(): Promise<string | null> {
    return this.operators.wedged();
  }
  recover(reason: string): Promise<{ effective_at: number }> {
    return this.operators.recover(reason);
  }

  // ---- tickets (tickets.ts: made from the main window, signed only in the confirmation window) ----

  annotate(...a: Parameters<TicketBook['annotate']>): void {
    this.tickets.annotate(...a);
  }
  pendingTickets(): Ticket[] {
    return this.tickets.pendingTickets();
  }
  /** Withdraws the tickets whose act holds already or whose request is closed, against the records read now. */
  async sweepTickets(): Promise<void> {
    this.tickets.sweep(await this.ledger.load());
  }
  withdrawnTickets(): WithdrawnTicket[] {
    return this.tickets.withdrawn();
  }
  decline(id: string): void {
    this.tickets.close(id, 'declined, nothing was signed');
  }
  vouchTicket(...a: Parameters<TicketBook['vouchTicket']>): Ticket {
    return this.tickets.vouchTicket(...a);
  }
  detachedTicket(...a: Parameters<TicketBook['detachedTicket']>): Ticket {
    return this.tickets.detachedTicket(...a);
  }
  draftTicket(...a: Parameters<TicketBook['draftTicket']>): Promise<Ticket> {
    return this.tickets.draftTicket(...a);
  }
  draftBatchTicket(...a: Parameters<TicketBook['draftBatchTicket']>): Promise<Ticket> {
    return this.tickets.draftBatchTicket(...a);
  }
  decisionTicket(...a: Parameters<TicketBook['decisionTicket']>): Promise<Ticket> {
    return this.tickets.decisionTicket(...a);
  }
  policyTicket(...a: Parameters<TicketBook['policyTicket']>): Promise<Ticket> {
    return this.tickets.policyTicket(...a);
  }
  removeOperatorTicket(id: string): Promise<Ticket> {
    return this.tickets.removeOperatorTicket(id);
  }
  removeAddressTicket(payload: string, title: string): Ticket {
    return this.tickets.removeAddressTicket(payload, title);
  }
  roleTicket(...a: Parameters<TicketBook['roleTicket']>): Promise<Ticket> {
    return this.tickets.roleTicket(...a);
  }
  unfreezeTicket(): Ticket {
    return this.tickets.unfreezeTicket();
  }
  freezeTicket(reason: string): Ticket {
    return this.tickets.freezeTicket(reason);
  }

  /** Signs a ticket as the operator (their passphrase opens their key) and stores the record (signing.ts). */
  sign(ticketId: string, operator: string, passphrase: string): Promise<Ticket> {
    return this.signing.sign(ticketId, operator, passphrase);
  }

  /** The policy in force for a profile and whether its copy on disk is refused (policyCopy.ts). */
  policyStatus(profile: string): Promise<PolicyStatus> {
    return this.policy.status(profile);
  }

  // ---- requests ready to send ----

  /**
   * Approved requests and payout batches of a profile not yet wholly handed to its journal, oldest
   * first. Rebalance batches are not among them: their runner sends each transfer when it is due.
   */
  async readyToSend(profile: string): Promise<Proposal[]> {
    const s = await this.ledger.load();
    const dispatchable = (p: Proposal): boolean =>
      p.what === 'request' || (p.what === 'batch' && DISPATCHED_BATCHES.has((JSON.parse(p.payload) as BatchPayload).batch));
    return (
      [...s.proposals.values()]
        .filter((p) => dispatchable(p) && p.profile === profile && p.approved_at !== null && !p.dispatched && !p.rejected)
        // A frozen desk hands over containment only (governance/management.ts).
        .filter((p) => !s.frozen || containOnly(p))
        // On a shared store the desk that drafted a request sends it: the others only sign.
        .filter((p) => this.opts.store.writtenHere?.(p.drafted_seq + 1) ?? true)
        // Judged again at hand-over: one the policy in force now asks more of waits for more approvals.
        .filter((p) => stillApproved(s, p, this.opts.rules, this.now()))
        .sort((a, b) => a.approved_at! - b.approved_at!)
    );
  }

  /** On a shared store, `leased` names the writes whose send lease this desk takes with the record. */
  async markDispatched(ref: string, profile: string, leased?: readonly string[]): Promise<void> {
    await this.ledger.append({ type: 'dispatched', ref, profile }, leased);
  }

  /** On a shared store, where a request was drafted and signed, and this desk's name; null alone. */
  desks(ref: string): { drafted: string | null; signed: Map<string, string>; here: string | null } | null {
    const store = this.opts.store;
    return store.desksOf ? { ...store.desksOf(ref), here: store.deskName?.() ?? null } : null;
  }

  /** On a shared store, Verify of its records afresh (team/pgStore.ts audit()); null on this desk's own store. */
  audit(): Promise<StoreAudit> | null {
    return this.opts.store.audit ? this.opts.store.audit() : null;
  }

  /** The shared store's send leases, or null for a store only this desk writes. */
  get leases(): SendLeases | null {
    return this.opts.store.handOver ? (this.opts.store.leases ?? null) : null;
  }

  /** The signatures of a request, drafter first, for its intent in the profile's journal. */
  signaturesOf(p: Proposal): OperatorSignature[] {
    return [p.drafted_by, ...p.signoffs.map((x) => x.signed)];
  }

  /** What a proposal needs at `at` (now unless said: a decided one is read at its decision) and whose approvals count. */
  quorum(p: Proposal, at = this.now()): { needed: number; approvers: string[] } {
    const q = quorumOf(this.ledger.cached()!, p, this.opts.rules, at);
    return { needed: q.needed, approvers: countedApprovers(p, q.drafterCounts) };
  }

  /** Whether an approved request still has the approvals the policy in force now asks. */
  stillApproved(p: Proposal): boolean {
    return stillApproved(this.ledger.cached()!, p, this.opts.rules, this.now());
  }

  /** When a request or batch expires unapproved (null for changes), and whether it has. */
  expiry(p: Proposal): { at: number | null; expired: boolean } {
    return { at: expiresAt(this.ledger.cached()!, p), expired: isExpired(this.ledger.cached()!, p, this.now()) };
  }

  /** A request's or batch's verdict now: the stricter of its drafter's and the policy in force. */
  verdictNow(p: Proposal): Verdict {
    return verdictAt(this.ledger.cached()!, p, this.now());
  }

  /** What judged a proposal at `at`, as the records read now say (for one that expired: at its expiry). */
  judgedAt(p: Proposal, at: number): Decision {
    return decisionAt(this.ledger.cached()!, p, this.opts.rules, at);
  }

  changeQuorum(): number {
    return deskQuorum(this.ledger.cached()!, this.opts.rules, this.now());
  }

  /** The operators in force by the records last read, while the store cannot be reached; null if none were read. */
  operatorsLastRead(): { id: string; name: string }[] | null {
    return this.ledger.lastRead() ? activeOperators(this.ledger.lastRead()!, this.now()).map((o) => ({ id: o.id, name: o.name })) : null;
  }

  activeOperators(): { id: string; name: string }[] {
    return activeOperators(this.ledger.cached()!, this.now()).map((o) => ({ id: o.id, name: o.name }));
  }
}
