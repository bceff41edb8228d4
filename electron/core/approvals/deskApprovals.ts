import type { JournalSource } from '../journal/audit.ts';
import type { GovernanceRecord } from '../journal/records.ts';
import type { GovernanceRules } from '../governance/state.ts';
import type { ActiveSession } from '../session.ts';
import type { AddressBook } from './addressBook.ts';
import { ConfirmWindow } from './confirmWindow.ts';
import { DomainGovernance, type DeskApprovalsOptions } from './domains.ts';
import { Drafting } from './drafting.ts';
import { PolicyReplayer } from './policyReplay.ts';
import { ApprovalQueue } from './queue.ts';
import { Reviewer } from './review.ts';
import { Sending } from './sending.ts';
import type { Approvals } from './service.ts';
import type { Domain, StoreBase } from './store.ts';

// The approvals as the core runs them: one governance per trust domain (the vault's, for stored
// profiles; a Sandbox-only one whose records a per-desk file key authenticates, for play money), the
// policy's verdict with what the desk knows around a write, and the hand-over of approved requests to
// the active profile's executor, exactly once (intent first, then the "dispatched" record).
//
// This class only puts the parts together and speaks for them, each in a file with one job:
// domains.ts     each domain's store, Approvals, address book and audit source;
// sending.ts     the hand-over, the executor's gate, what holds governed writes, the send leases;
// queue.ts       what the Approvals page and the batch runners read;
// drafting.ts    reviews, drafts and the main window's tickets;
// confirmWindow.ts  what the confirmation window shows and signs;
// policyReplay.ts   a policy replayed against the last 30 days.
// A team's store reaches it through DeskApprovalsOptions.teams (built in team/wiring.ts).

export type { DeskApprovalsOptions } from './domains.ts';
export type { Domain } from './store.ts';

export class DeskApprovals {
  private readonly domains: DomainGovernance;
  private readonly sending: Sending;
  private readonly queue: ApprovalQueue;
  private readonly drafting: Drafting;
  private readonly confirm: ConfirmWindow;
  private readonly replayer: PolicyReplayer;

  constructor(opts: DeskApprovalsOptions) {
    const now = opts.now ?? Date.now;
    const { session, onChange, log } = opts;
    this.domains = new DomainGovernance(opts, {
      dispatch: () => this.sending.dispatch(),
      settled: () => this.sending.settled(),
      keepLeasesEvery: (leaseMs) => this.sending.keepLeasesEvery(leaseMs),
    });
    const domains = this.domains;
    const reviewer = new Reviewer({ book: () => domains.book, now, profiles: () => session.list() });
    // Without team stores there are no leases to keep, and no round of it to find stuck.
    const leaseMs = opts.teams?.defaultLeaseMs ?? Number.POSITIVE_INFINITY;
    this.sending = new Sending({ session, domains, now, onChange, log, leaseMs });
    this.queue = new ApprovalQueue({ domains, reviewer, now, coolingOffMs: opts.coolingOffMs });
    this.drafting = new Drafting({ domains, reviewer, session, now, onChange });
    this.confirm = new ConfirmWindow({ domains, vault: opts.vault, onChange, dispatch: () => this.sending.dispatch() });
    this.replayer = new PolicyReplayer({ domains, reviewer, now });
    // A desk started with a team store keeps its leases from the start; one joined later, once it opens.
    if (opts.teams?.startedLeaseMs != null) this.sending.keepLeasesEvery(opts.teams.startedLeaseMs);
  }

  // ---- the domains (domains.ts) ----

  /** The governance of the active profile's domain (throws while locked or without a profile). */
  forActive(): { approvals: Approvals; session: ActiveSession } {
    return this.domains.forActive();
  }
  /** The active profile's domain (throws while locked or without a profile). */
  activeDomain(): Domain {
    return this.domains.activeDomain();
  }
  /** The active profile's address book (each domain has its own). */
  get book(): AddressBook {
    return this.domains.book;
  }
  auditorActive(): boolean {
    return this.domains.auditorActive();
  }
  storeOptions(domain: Domain): StoreBase {
    return this.domains.storeOptions(domain);
  }
  recordsOf(domain: Domain): Promise<GovernanceRecord[]> {
    return this.domains.recordsOf(domain);
  }
  /** Closes a domain's governance so that its next use opens the store now chosen (a team joined, founded or left). */
  reopen(domain: Domain): Promise<void> {
    return this.domains.reopen(domain);
  }
  auditSource(): { source: JournalSource; rules: GovernanceRules } {
    return this.domains.auditSource();
  }

  // ---- sending (sending.ts) ----

  gate(...a: Parameters<Sending['gate']>): ReturnType<Sending['gate']> {
    return this.sending.gate(...a);
  }
  frozenReason(profileId: string, kind?: string): string | null {
    return this.sending.frozenReason(profileId, kind);
  }
  holdReason(kind?: string): Promise<string | null> {
    return this.sending.holdReason(kind);
  }
  dispatch(): Promise<void> {
    return this.sending.dispatch();
  }
  keepLeases(): Promise<void> {
    return this.sending.keepLeases();
  }
  closeBatch(ref: string): Promise<void> {
    return this.sending.closeBatch(ref);
  }

  // ---- what the pages read (queue.ts) ----

  state(): ReturnType<ApprovalQueue['state']> {
    return this.queue.state();
  }
  verifyTeam(): ReturnType<ApprovalQueue['verifyTeam']> {
    return this.queue.verifyTeam();
  }
  batchStatus(ref: string): ReturnType<ApprovalQueue['batchStatus']> {
    return this.queue.batchStatus(ref);
  }
  batchesOf(...a: Parameters<ApprovalQueue['batchesOf']>): ReturnType<ApprovalQueue['batchesOf']> {
    return this.queue.batchesOf(...a);
  }
  approvedBatch(ref: string): ReturnType<ApprovalQueue['approvedBatch']> {
    return this.queue.approvedBatch(ref);
  }
  requestStatus(ref: string): ReturnType<ApprovalQueue['requestStatus']> {
    return this.queue.requestStatus(ref);
  }

  // ---- reviews, drafts and tickets (drafting.ts) ----

  review(...a: Parameters<Drafting['review']>): ReturnType<Drafting['review']> {
    return this.drafting.review(...a);
  }
  reviewBatch(...a: Parameters<Drafting['reviewBatch']>): ReturnType<Drafting['reviewBatch']> {
    return this.drafting.reviewBatch(...a);
  }
  draft(...a: Parameters<Drafting['draft']>): ReturnType<Drafting['draft']> {
    return this.drafting.draft(...a);
  }
  draftBatch(...a: Parameters<Drafting['draftBatch']>): ReturnType<Drafting['draftBatch']> {
    return this.drafting.draftBatch(...a);
  }
  addressBookTicket(...a: Parameters<Drafting['addressBookTicket']>): ReturnType<Drafting['addressBookTicket']> {
    return this.drafting.addressBookTicket(...a);
  }
  addressBookRemoveTicket(...a: Parameters<Drafting['addressBookRemoveTicket']>): ReturnType<Drafting['addressBookRemoveTicket']> {
    return this.drafting.addressBookRemoveTicket(...a);
  }
  ticketFor(...a: Parameters<Drafting['ticketFor']>): ReturnType<Drafting['ticketFor']> {
    return this.drafting.ticketFor(...a);
  }

  /** "What would this policy have done" (policyReplay.ts). */
  replay(...a: Parameters<PolicyReplayer['replay']>): ReturnType<PolicyReplayer['replay']> {
    return this.replayer.replay(...a);
  }

  // ---- the confirmation window (confirmWindow.ts) ----

  notify(): void {
    this.confirm.notify();
  }
  confirmState(): ReturnType<ConfirmWindow['confirmState']> {
    return this.confirm.confirmState();
  }
  sign(...a: Parameters<ConfirmWindow['sign']>): ReturnType<ConfirmWindow['sign']> {
    return this.confirm.sign(...a);
  }
  recover(...a: Parameters<ConfirmWindow['recover']>): ReturnType<ConfirmWindow['recover']> {
    return this.confirm.recover(...a);
  }
  createFirstOperator(...a: Parameters<ConfirmWindow['createFirstOperator']>): ReturnType<ConfirmWindow['createFirstOperator']> {
    return this.confirm.createFirstOperator(...a);
  }
  proposeOperator(...a: Parameters<ConfirmWindow['proposeOperator']>): ReturnType<ConfirmWindow['proposeOperator']> {
    return this.confirm.proposeOperator(...a);
  }
  makeOwnKey(...a: Parameters<ConfirmWindow['makeOwnKey']>): ReturnType<ConfirmWindow['makeOwnKey']> {
    return this.confirm.makeOwnKey(...a);
  }

  async close(): Promise<void> {
    this.domains.closing();
    await this.sending.close();
    await this.domains.close();
  }
}
