import { join } from 'node:path';
import { RATE_RULES } from '../../../shared/api/rateLimits.ts';
import type { WriteRequest } from '../../../shared/api/writes.ts';
import type { ApprovalItem, ApprovalsState, RequestStatus, TeamVerifyAnswer } from '../../../shared/ipc.ts';
import type { ConfirmState } from '../../../shared/confirm.ts';
import type { z } from 'zod';
import { fileJournalKey, type JournalKey } from '../journal/mac.ts';
import { fileRegistry } from '../journal/registry.ts';
import {
  BatchPayload,
  type BatchKind,
  type BatchReview,
  type BatchRow,
  type BatchSpec,
  type BatchStatus,
} from '../../../shared/api/batch.ts';
import type { GovernanceRecord, OperatorSignature } from '../journal/records.ts';
import { InputError } from '../errors.ts';
import type { ActiveSession, Session } from '../session.ts';
import type { VaultPort } from '../vaultPort.ts';
import { AddressBook, type NewEntry } from './addressBook.ts';
import type { RemovedEntry } from '../../../shared/addressBook.ts';
import {
  activeAt,
  entryKey,
  removedEntries,
  roleAhead,
  roleAt,
  DEFAULT_COOLING_OFF_MS,
  GovernanceError,
  type GovernanceRules,
  type Proposal,
  type RequestPayload,
} from '../governance/state.ts';
import { gateRefusal, isApproved, type GatedWrite } from './sendGate.ts';
import { leaseRefusal } from './sendLease.ts';
import type { JournalSource } from '../journal/audit.ts';
import { LocalGovernanceStore } from './localStore.ts';
import type { Domain, GovernanceStore, StoreBase, TeamStores } from './store.ts';
import { keepLeases } from './leaseKeeper.ts';
import { Approvals, type NewOperatorKey } from './service.ts';
import { replayPolicy, type ReplayItem } from '../policy/replay.ts';
import { REPLAY_DAYS, type PolicyReplay } from '../../../shared/api/replay.ts';
import type { Policy } from '../../../shared/api/policy.ts';
import type { Role } from '../../../shared/api/roles.ts';
import { operatorsFor, wedgeMargin } from './wedge.ts';
import { Reviewer, type JudgedReview } from './review.ts';
import type { WriteFacts } from '../../../shared/api/policy.ts';
import { isManagementKind, managementSummary } from '../../../shared/api/subAccounts.ts';
import { containKind } from '../governance/management.ts';

// The approvals as the core runs them: one governance per trust domain (the vault's, for stored
// profiles; a Sandbox-only one whose records a per-desk file key authenticates, for play money), the
// policy's verdict with what the desk knows around a write, and the hand-over of approved requests to
// the active profile's executor, exactly once (intent first, then the "dispatched" record).

export interface DeskApprovalsOptions {
  dataDir: string;
  /** The host's state directory outside the data folder, where the governance journals' anchors are kept. */
  anchorDir?: string;
  session: Session;
  vault: VaultPort | null;
  /**
   * The Sandbox profile's cooling-off (TREASURY_DESK_COOLING_OFF_HOURS, for rehearsals and tests). Every
   * other profile's changes wait DEFAULT_COOLING_OFF_MS, whatever the desk was started with.
   */
  coolingOffMs: number;
  now?: () => number;
  onChange: () => void;
  /**
   * A team's governance on PostgreSQL in place of this desk's own journal, per domain: built outside
   * approvals/ (team/wiring.ts) and asked each time a domain's store is opened. Without it, every domain
   * keeps its own journal.
   */
  teams?: TeamStores;
  /** Tells the operator (desktop notification and in-app notice) that a signature is needed. */
  notify?: (n: { title: string; body: string; tag: string }) => void;
  log: (line: string) => void;
}

export type { Domain } from './store.ts';

/** An auditor desk of a team: it reads and verifies the team's queue and records, and signs and sends nothing. */
const AUDITOR = "this is an auditor desk: it reads and verifies the team's queue and records, and signs and sends nothing";
/** The same, while the active profile is an auditor profile (a desk with no exchange key), whatever the desk was started with. */
const AUDITOR_PROFILE =
  "this is an auditor profile: it has no exchange key; it reads and verifies the approvals' queue and records, and signs and sends nothing";

/**
 * §8.2 pace of money leaving: approved requests are handed to the executor one at a time at this pace,
 * so that a freeze stops those still waiting (once handed over, a request is in the scheduler's queue).
 */
const PACE_MS: Record<string, number> = Object.fromEntries(
  (
    [
      ['withdrawal', 'withdraw'],
      ['uid_transfer', 'withdraw_push'],
    ] as const
  ).map(([kind, id]) => {
    const r = RATE_RULES.find((x) => x.id === id)!;
    return [kind, Math.ceil((r.windowSec * 1000) / r.limit)];
  }),
);

export class DeskApprovals {
  private readonly domains = new Map<Domain, Approvals>();
  private readonly stores: GovernanceStore[] = [];
  private readonly audit = new Map<Domain, { source: JournalSource; rules: GovernanceRules }>();
  private readonly now: () => number;
  private readonly books = new Map<Domain, AddressBook>();
  private dispatching: Promise<void> = Promise.resolve();
  private readonly lastHanded = new Map<string, number>();
  private closed = false;
  /** Writes handed over under this desk's send lease and not yet given to its executor. */
  private readonly handing = new Set<string>();
  private leaseTimer: NodeJS.Timeout | null = null;
  /** Set again when the lease keeping starts; only its rounds read it, and only a team store has leases to keep. */
  private leaseMs: number;
  /** Each open domain's store, to close when the domain moves to (or from) a team store. */
  private readonly storeOf = new Map<Domain, GovernanceStore>();

  private readonly reviewer: Reviewer;

  constructor(private readonly opts: DeskApprovalsOptions) {
    this.now = opts.now ?? Date.now;
    this.reviewer = new Reviewer({ book: () => this.book, now: this.now, profiles: () => opts.session.list() });
    this.leaseMs = opts.teams?.defaultLeaseMs ?? Number.POSITIVE_INFINITY;
    if (opts.teams?.startedLeaseMs != null) this.keepLeasesEvery(opts.teams.startedLeaseMs);
  }

  private keepLeasesEvery(leaseMs: number): void {
    if (this.leaseTimer) return;
    this.leaseMs = leaseMs;
    // A third of the lease: a renewal missed (a slow round, a dropped connection) still leaves two before it expires.
    this.leaseTimer = setInterval(() => void this.keepLeases(), leaseMs / 3);
    this.leaseTimer.unref();
  }

  /** Whether the active profile is an auditor profile (no exchange key): it joins a team only to read it. */
  auditorActive(): boolean {
    return this.opts.session.isAuditor();
  }

  /** What a domain's store would be opened with: its folder, rules and clock (a team store adds its own, team/wiring.ts). */
  storeOptions(domain: Domain): StoreBase {
    return { dir: join(this.opts.dataDir, 'approvals'), rules: this.rulesOf(domain), now: this.now };
  }

  private rulesOf(domain: Domain): GovernanceRules {
    const profiles = (): string[] =>
      this.opts.session
        .list()
        .filter((p) => (domain === 'sandbox') === p.built_in)
        .map((p) => p.id);
    return {
      coolingOffMs: this.coolingOff(domain),
      minCoolingOffMs: domain === 'sandbox' ? 0 : DEFAULT_COOLING_OFF_MS,
      profiles,
    };
  }

  /** The records of a domain's own store as they stand (founding a team copies them). */
  async recordsOf(domain: Domain): Promise<GovernanceRecord[]> {
    this.forDomain(domain);
    return this.storeOf.get(domain)!.read();
  }

  /**
   * Closes a domain's governance so that its next use opens the store now chosen (a team joined or
   * founded): the Approvals page shows the team's queue without a restart. The local journal is left as it is.
   */
  async reopen(domain: Domain): Promise<void> {
    await this.dispatching;
    const store = this.storeOf.get(domain);
    this.domains.delete(domain);
    this.books.delete(domain);
    this.audit.delete(domain);
    this.storeOf.delete(domain);
    if (store) {
      this.stores.splice(this.stores.indexOf(store), 1);
      await store.close();
    }
    this.opts.onChange();
  }

  /** The active profile's domain (throws while locked or without a profile). */
  activeDomain(): Domain {
    return this.domainOf(this.opts.session.active().id);
  }

  private keeping: Promise<void> | null = null;
  private keepingSince = 0;
  private keepingStuckLogged = false;
  private readonly leaseHeldFor = new Map<string, string>();

  /** Renews this desk's send leases, finishes settled ones, and takes over expired ones (leaseKeeper.ts). */
  keepLeases(): Promise<void> {
    if (this.keeping) {
      // A round that never ends would stop every renewal and take-over without a word: say so, once.
      const ms = this.now() - this.keepingSince;
      if (!this.keepingStuckLogged && ms > this.leaseMs) {
        this.keepingStuckLogged = true;
        this.opts.log(`[approvals] send leases: a round has not finished in ${ms} ms; renewals and take-overs wait for it`);
      }
      return this.keeping;
    }
    this.keepingSince = this.now();
    this.keeping = (async () => {
      try {
        const { approvals, session } = this.forActive();
        if (approvals.readOnly) return;
        await keepLeases({
          approvals,
          session,
          handing: this.handing,
          hold: () => this.holdReason(),
          heldFor: this.leaseHeldFor,
          log: this.opts.log,
        });
      } catch (e) {
        this.opts.log(`[approvals] send leases: ${(e as Error).message}`);
      }
    })().finally(() => {
      this.keeping = null;
      this.keepingStuckLogged = false;
    });
    return this.keeping;
  }

  /**
   * The active profile's address book. Each governance domain has its own: an entry counts only under the
   * operators who signed it, and a live profile's destinations wait the default cooling-off whatever the
   * Sandbox rehearses with.
   */
  get book(): AddressBook {
    const domain = this.domainOf(this.opts.session.active().id);
    let book = this.books.get(domain);
    if (!book) {
      book = new AddressBook({
        path: join(this.opts.dataDir, domain === 'vault' ? 'address-book.json' : 'address-book.sandbox.json'),
        coolingOffMs: this.coolingOff(domain),
        now: this.now,
        operators: async () => (await this.forDomain(domain).load()).operators,
        removed: async () => removedEntries(await this.forDomain(domain).load()),
      });
      this.books.set(domain, book);
    }
    return book;
  }

  private domainOf(profileId: string): Domain {
    const p = this.opts.session.list().find((x) => x.id === profileId);
    // An auditor profile of the Sandbox audits the Sandbox's approvals (play money; it signs nothing there either).
    return p?.built_in || (p?.auditor && p.environment === 'sandbox') ? 'sandbox' : 'vault';
  }

  /** The governance of the active profile's domain (throws while locked or without a profile). */
  forActive(): { approvals: Approvals; session: ActiveSession } {
    const session = this.opts.session.active();
    return { approvals: this.forDomain(this.domainOf(session.id)), session };
  }

  /** A vault's changes always wait the default; only the Sandbox's play money rehearses with a shorter wait. */
  private coolingOff(domain: Domain): number {
    return domain === 'sandbox' ? this.opts.coolingOffMs : DEFAULT_COOLING_OFF_MS;
  }

  private forDomain(domain: Domain): Approvals {
    let approvals = this.domains.get(domain);
    if (!approvals) {
      // A dispatch queued before close() must not open the stores again (a team store's connections would outlive the desk).
      if (this.closed) throw new Error('the approvals are closed');
      const dir = join(this.opts.dataDir, 'approvals');
      const key: JournalKey =
        domain === 'sandbox'
          ? fileJournalKey(join(this.opts.dataDir, 'journals', 'desk-journal.key'))
          : () => this.opts.vault!.journalKey();
      const name = domain === 'sandbox' ? 'governance-sandbox' : 'governance';
      const registry =
        domain === 'sandbox'
          ? fileRegistry(join(this.opts.dataDir, 'journals', 'desk-journal.registry.json'), key)
          : this.opts.vault!.journalRegistry();
      const anchors = this.opts.anchorDir ? { anchorDir: this.opts.anchorDir } : {};
      const rules = this.rulesOf(domain);
      const team = this.opts.teams?.open(domain, { dir, rules, now: this.now }) ?? null;
      const store: GovernanceStore = team ? team.store : new LocalGovernanceStore(dir, name, { key, now: this.now, registry, ...anchors });
      this.stores.push(store);
      this.storeOf.set(domain, store);
      if (team) this.keepLeasesEvery(team.leaseMs);
      this.audit.set(domain, { source: { journal: 'governance', path: join(dir, `${name}.jsonl`), key, registry, ...anchors }, rules });
      approvals = new Approvals({
        store,
        rules,
        credential: domain === 'sandbox' ? 'none' : 'vault',
        now: this.now,
        // Read-only for an auditor desk, and for as long as an auditor profile is the active one.
        readOnly: () => (team?.auditor ? AUDITOR : this.opts.session.isAuditor() ? AUDITOR_PROFILE : null),
        onTicket: (t) =>
          this.opts.notify?.({ title: 'Signature needed', body: `${t.title}: waiting in the confirmation window.`, tag: `ticket:${t.id}` }),
        // Another desk of the team signed or drafted: the pages refresh, and a request now approved goes out.
        onRecordsChanged: (e) => {
          if (e) this.opts.log(`[approvals] the team's records were not read: ${e.message}`);
          this.opts.onChange();
          void this.dispatch();
        },
      });
      this.domains.set(domain, approvals);
    }
    return approvals;
  }

  /**
   * The executor's gate for a profile: why `w` may not leave now, or null. Every send passes here, on
   * every profile; a governance store that cannot be read throws, and the write waits unsent.
   */
  async gate(profileId: string, w: GatedWrite, deadline: number): Promise<string | null> {
    const domain = this.domainOf(profileId);
    const approvals = this.forDomain(domain);
    if (approvals.readOnly) return approvals.readOnly;
    const state = await approvals.load();
    const refused = gateRefusal(state, this.audit.get(domain)!.rules, profileId, w, this.now());
    if (refused !== null || !approvals.leases) return refused;
    // On a team, only the desk holding the write's send lease sends it, renewed here before each attempt
    // and long enough to outlast it (sendLease.ts).
    const askedAt = Date.now();
    return leaseRefusal(await approvals.leases.renew(w.id), askedAt, deadline, isApproved(state, w.id));
  }

  /** Verify of the active profile's team records: every row read again and verified; `team: false` off a team. */
  async verifyTeam(): Promise<TeamVerifyAnswer> {
    const { approvals } = this.forActive();
    const audit = approvals.audit();
    return audit ? { team: true, ...(await audit) } : { team: false };
  }

  /** The governance journal of the active profile's domain and the rules its signatures are checked under. */
  auditSource(): { source: JournalSource; rules: GovernanceRules } {
    this.forActive();
    return this.audit.get(this.domainOf(this.opts.session.active().id))!;
  }

  async state(): Promise<z.input<typeof ApprovalsState>> {
    const { approvals, session } = this.forActive();
    const s = await approvals.load();
    const policy = await approvals.policyStatus(session.id);
    const now = this.now();
    const items: ApprovalItem[] = [...s.proposals.values()]
      // An auditor profile audits the team's whole queue: every profile's requests, not its own (it has none).
      .filter((p) => p.what !== 'request' || p.profile === session.id || session.profile.auditor === true)
      .map((p) => this.item(approvals, p, now))
      .sort((a, b) => b.drafted_at - a.drafted_at);
    return {
      operators: [...s.operators.values()].map((o) => ({
        id: o.id,
        name: o.name,
        role: roleAt(o, Math.max(now, o.active_from)),
        role_ahead: roleAhead(o),
        state: activeAt(o, now)
          ? ('in_force' as const)
          : o.removed_from !== null && o.removed_from <= now
            ? ('removed' as const)
            : ('pending' as const),
      })),
      needs_first_operator: s.operators.size === 0,
      policy: {
        rules: policy.policy.rules,
        ...(policy.policy.request_expiry_hours !== undefined ? { request_expiry_hours: policy.policy.request_expiry_hours } : {}),
        ref: policy.ref,
        refused: policy.refused,
      },
      change_quorum: approvals.changeQuorum(),
      resilience: resilienceOf(s, session.id, now),
      cooling_off_hours: this.coolingOff(this.domainOf(session.id)) / 3_600_000,
      cooling_off_variable: this.domainOf(session.id) === 'sandbox' && this.opts.coolingOffMs !== DEFAULT_COOLING_OFF_MS,
      frozen: s.frozen,
      ...(approvals.readOnly ? { read_only: approvals.readOnly } : {}),
      items,
      blocked: this.reviewer.blockedReason(session) ?? policy.refused,
    };
  }

  private item(approvals: Approvals, p: Proposal, now: number): ApprovalItem {
    const q = approvals.quorum(p);
    const names = (ids: string[]): string[] =>
      ids.map((id) =>
        id === p.drafted_by.operator ? p.drafted_by.name : (p.signoffs.find((x) => x.signed.operator === id)?.signed.name ?? id),
      );
    const req = p.what === 'request' ? (JSON.parse(p.payload) as RequestPayload) : null;
    const batch = p.what === 'batch' ? (JSON.parse(p.payload) as BatchPayload) : null;
    // Approved under a gentler policy and not handed over yet: it waits for the approvals the policy now asks.
    const held = (req || batch) && p.approved_at !== null && !p.dispatched && !approvals.stillApproved(p);
    // What the request needs now (the stricter of its drafter's verdict and the policy in force), rule by rule.
    const verdict = req || batch ? approvals.verdictNow(p) : null;
    const expiry = approvals.expiry(p);
    const state: ApprovalItem['state'] = p.rejected
      ? 'rejected'
      : expiry.expired
        ? 'expired'
        : p.approved_at === null || held
          ? 'waiting'
          : req || batch
            ? p.dispatched
              ? 'sent'
              : 'approved'
            : p.effective_at! > now
              ? 'cooling_off'
              : 'in_force';
    return {
      ref: p.ref,
      what: p.what,
      ...(p.profile ? { profile: p.profile } : {}),
      ...(req ? { kind: req.kind, body: req.body, ...(req.signer ? { signer: req.signer } : {}), verdict: verdict! } : {}),
      ...(batch ? { kind: batch.batch, verdict: verdict! } : {}),
      summary: batch ? batchSummary(batch) : summarize(p, req),
      drafted_by: p.drafted_by.name,
      drafted_at: p.drafted_at,
      approved_by: names(q.approvers),
      // A blocked request can only be rejected; its verdict says which rule blocks it.
      needed: Number.isFinite(q.needed) ? q.needed : 0,
      state,
      expires_at: p.approved_at === null ? expiry.at : null,
      effective_at: p.effective_at,
      rejected: p.rejected ? { by: p.rejected.signed.name, reason: p.rejected.reason } : null,
      ...deskNames(approvals, p),
    };
  }

  // ---- review and drafts ----

  async review(write: z.output<typeof WriteRequest>, id: string | null = null): Promise<JudgedReview> {
    const { approvals, session } = this.forActive();
    return this.reviewer.one(this.reviewer.context(approvals, session, [write]), write, id, '0');
  }

  // ---- batches ----

  /**
   * Every row reviewed as a single write would be, the 24-hour velocity of each counting the rows before
   * it (so a batch cannot pass a velocity rule row by row), and the batch's verdict: its strictest row's.
   */
  async reviewBatch(
    spec: BatchSpec,
    ids: readonly string[] | null = null,
    fees?: ReadonlyMap<string, string>,
  ): Promise<BatchReview & { facts: WriteFacts[] }> {
    const { approvals, session } = this.forActive();
    return this.reviewer.batch(approvals, session, spec, ids, fees);
  }

  /** Opens a confirmation-window ticket for the whole batch; each row has its own id, signed with the rest. */
  async draftBatch(
    spec: BatchSpec,
    fees?: ReadonlyMap<string, string>,
  ): Promise<{ ticket: string; title: string; ref: string; rows: BatchRow[] }> {
    const ref = this.opts.session.newOrderId(this.now());
    const ids = spec.writes.map(() => this.opts.session.newOrderId(this.now()));
    const review = await this.reviewBatch(spec, ids, fees);
    const { approvals, session } = this.forActive();
    const rows: BatchRow[] = review.rows.map((r, i) => ({
      ref: ids[i]!,
      kind: r.kind,
      body: r.body,
      ...(r.signer ? { signer: r.signer } : {}),
      ...(spec.writes[i]!.note ? { note: spec.writes[i]!.note } : {}),
    }));
    const payload: BatchPayload = {
      batch: spec.batch,
      title: spec.title,
      source: spec.source,
      rows,
      verdict: review.verdict,
      totals: review.totals,
      facts: review.facts,
    };
    const t = await approvals.draftBatchTicket(session.id, ref, payload).catch(asInput);
    this.opts.onChange();
    return { ticket: t.id, title: t.title, ref, rows };
  }

  /** A batch of the active profile as the governance records hold it, or null. */
  async batchStatus(ref: string): Promise<BatchStatus | null> {
    const { approvals, session } = this.forActive();
    const p = (await approvals.load()).proposals.get(ref);
    if (!p || p.what !== 'batch' || p.profile !== session.id) return null;
    const q = approvals.quorum(p);
    const waiting = p.approved_at === null || (!p.dispatched && !approvals.stillApproved(p));
    const state = p.rejected
      ? 'rejected'
      : approvals.expiry(p).expired
        ? 'expired'
        : waiting
          ? 'waiting'
          : p.dispatched
            ? 'sent'
            : 'approved';
    return {
      ref,
      state,
      payload: BatchPayload.parse(JSON.parse(p.payload)),
      approved_by: this.approverNames(p, q.approvers),
      needed: Number.isFinite(q.needed) ? q.needed : 0,
    };
  }

  private approverNames(p: Proposal, approvers: readonly string[]): string[] {
    return approvers.map((id) =>
      id === p.drafted_by.operator ? p.drafted_by.name : (p.signoffs.find((x) => x.signed.operator === id)?.signed.name ?? id),
    );
  }

  /**
   * The active profile's batches of a kind, oldest first: every one the governance records hold (from its
   * drafter's signature on), and drafts still waiting for that signature in the confirmation window.
   */
  async batchesOf(kind: BatchKind): Promise<{ ref: string; drafted_at: number; payload: BatchPayload; signed: boolean }[]> {
    const { approvals, session } = this.forActive();
    const mine = (profile: string | undefined, what: string, payload: string): BatchPayload | null => {
      if (what !== 'batch' || profile !== session.id) return null;
      const b = BatchPayload.parse(JSON.parse(payload));
      return b.batch === kind ? b : null;
    };
    const out: { ref: string; drafted_at: number; payload: BatchPayload; signed: boolean }[] = [];
    for (const p of (await approvals.load()).proposals.values()) {
      const payload = mine(p.profile, p.what, p.payload);
      if (payload) out.push({ ref: p.ref, drafted_at: p.drafted_at, payload, signed: true });
    }
    for (const t of approvals.pendingTickets()) {
      const payload = t.action === 'draft' ? mine(t.profile, t.what, t.payload) : null;
      if (payload) out.push({ ref: t.ref, drafted_at: t.created_at, payload, signed: false });
    }
    return out.sort((a, b) => a.drafted_at - b.drafted_at);
  }

  /** An approved batch's rows and the signatures its rows are journaled with (null while it is not approved). */
  async approvedBatch(ref: string): Promise<{ rows: BatchRow[]; signatures: OperatorSignature[]; by: string; approved_at: number } | null> {
    const { approvals, session } = this.forActive();
    const p = (await approvals.load()).proposals.get(ref);
    if (!p || p.what !== 'batch' || p.profile !== session.id || p.approved_at === null || p.rejected) return null;
    const sigs = approvals.signaturesOf(p);
    return {
      rows: (JSON.parse(p.payload) as BatchPayload).rows,
      signatures: sigs,
      by: [...new Set(sigs.map((x) => x.name))].join(', '),
      approved_at: p.approved_at,
    };
  }

  /** Closes a batch whose runner finished with it (a rebalance); payout batches are closed by the dispatcher. */
  async closeBatch(ref: string): Promise<void> {
    const { approvals, session } = this.forActive();
    const p = (await approvals.load()).proposals.get(ref);
    if (p?.what === 'batch' && !p.dispatched && p.approved_at !== null) await approvals.markDispatched(ref, session.id);
    this.opts.onChange();
  }

  async draft(write: z.output<typeof WriteRequest>, note?: string): Promise<{ ticket: string; title: string; ref: string }> {
    const ref = this.opts.session.newOrderId(this.now());
    const r = await this.review(write, ref);
    const { approvals, session } = this.forActive();
    const t = await approvals.draftTicket(session.id, ref, write.kind, r.body, r.verdict, note, r.signer, r.facts).catch(asInput);
    this.opts.onChange();
    return { ticket: t.id, title: t.title, ref };
  }

  /**
   * "What would this policy have done": the last 30 days of this profile's requests and batch rows, as
   * signed with the facts the desk knew, and `exchange` (withdrawals the exchange lists that this desk did
   * not send), judged by `policy` beside the policy in force. Nothing is stored.
   */
  async replay(policy: Policy, exchange: ReadonlyArray<{ at: number; wire: Record<string, string> }>): Promise<PolicyReplay> {
    const { approvals, session } = this.forActive();
    const s = await approvals.load();
    const to = this.now();
    const from = to - REPLAY_DAYS * 86_400_000;
    const items: ReplayItem[] = [];
    for (const p of s.proposals.values()) {
      if ((p.what !== 'request' && p.what !== 'batch') || p.profile !== session.id || p.drafted_at < from) continue;
      if (p.what === 'request') {
        const req = JSON.parse(p.payload) as RequestPayload;
        // Requests drafted before facts were signed cannot be judged again as they were: left out.
        if (req.facts)
          items.push({
            at: p.drafted_at,
            source: 'desk',
            summary: summarize(p, req),
            row: { kind: req.kind, body: req.body, facts: req.facts },
          });
        continue;
      }
      const b = BatchPayload.parse(JSON.parse(p.payload));
      b.rows.forEach((row, i) => {
        const facts = b.facts?.[i];
        if (facts)
          items.push({
            at: p.drafted_at,
            source: 'desk',
            summary: `${b.title}, row ${i + 1}: ${summarize(p, { kind: row.kind, body: row.body, verdict: b.verdict })}`,
            row: { kind: row.kind, body: row.body, facts },
          });
      });
    }
    const recent = exchange.filter((w) => w.at >= from);
    const facts = await this.reviewer.withdrawalFacts(
      session,
      recent.map((w) => w.wire),
    );
    recent.forEach(({ at, wire: w }, i) =>
      items.push({
        at,
        source: 'exchange',
        summary: `${w.amount} ${w.currency} to ${w.address} on ${w.chain}, not sent by this desk`,
        row: { kind: 'withdrawal', body: { currency: String(w.currency), amount: String(w.amount) }, facts: facts[i]! },
      }),
    );
    return replayPolicy(policy, (await approvals.policyStatus(session.id)).policy, items, from, to);
  }

  /** Where a request drafted from a page stands, from its drafter's signature to the journal's final state. */
  async requestStatus(ref: string): Promise<RequestStatus> {
    const { approvals, session } = this.forActive();
    const p = (await approvals.load()).proposals.get(ref);
    const intent = session.journal?.intent(ref) ?? null;
    if (!p || p.what !== 'request' || p.profile !== session.id) {
      // Tickets live in memory: one neither pending nor signed was declined, or the desk restarted.
      const toSign = approvals.pendingTickets().some((t) => t.ref === ref && t.action === 'draft');
      return { ref, state: toSign ? 'to_sign' : 'gone', approved_by: [], needed: 0, rejected: null, expires_at: null, intent };
    }
    const q = approvals.quorum(p);
    const waiting = p.approved_at === null || (!p.dispatched && !approvals.stillApproved(p));
    const rejected = p.rejected ? { by: p.rejected.signed.name, reason: p.rejected.reason } : null;
    const expiry = approvals.expiry(p);
    const state = rejected ? 'rejected' : expiry.expired ? 'expired' : waiting ? 'waiting' : p.dispatched ? 'sent' : 'approved';
    return {
      ref,
      state,
      approved_by: this.approverNames(p, q.approvers),
      needed: Number.isFinite(q.needed) ? q.needed : 0,
      rejected,
      expires_at: p.approved_at === null ? expiry.at : null,
      intent,
    };
  }

  /** Removing an entry is a governance change: the change quorum, effective once approved (it only takes trust away). */
  async addressBookRemoveTicket(e: RemovedEntry): Promise<{ ticket: string; title: string }> {
    const entry = (await this.book.withReadiness()).find((b) => entryKey(b) === entryKey(e));
    if (!entry) throw new InputError(['address'], 'that entry is not in the address book.');
    if (entry.removed) throw new InputError(['address'], 'that entry was removed already.');
    const payload = JSON.stringify({
      added_at: e.added_at,
      address: e.address,
      chain: e.chain,
      currency: e.currency,
      ...(e.memo ? { memo: e.memo } : {}),
    });
    const title = `Remove ${e.address} (${e.currency} on ${e.chain}) from the address book`;
    return this.ticketFor((a) => a.removeAddressTicket(payload, title));
  }

  /** An address-book entry waits for an operator's signature in the confirmation window; it exists from then on. */
  async addressBookTicket(e: NewEntry): Promise<{ ticket: string; title: string }> {
    this.book.checkNew(e, removedEntries(await this.forActive().approvals.load()));
    const payload = JSON.stringify({ currency: e.currency, chain: e.chain, address: e.address, ...(e.memo ? { memo: e.memo } : {}) });
    const title = `Add ${e.address} (${e.currency} on ${e.chain}) to the address book`;
    return this.ticketFor((a) => a.detachedTicket('address_book', payload, title, (sign) => this.book.add(e, sign)));
  }

  async ticketFor(
    make: (a: Approvals) => Promise<{ id: string; title: string }> | { id: string; title: string },
  ): Promise<{ ticket: string; title: string }> {
    const { approvals } = this.forActive();
    const t = await Promise.resolve()
      .then(() => make(approvals))
      .catch(asInput);
    this.opts.onChange();
    return { ticket: t.id, title: t.title };
  }

  // ---- the confirmation window ----

  notify(): void {
    this.opts.onChange();
  }

  async confirmState(): Promise<ConfirmState> {
    let forActive: ReturnType<DeskApprovals['forActive']>;
    try {
      forActive = this.forActive();
    } catch (e) {
      return { tickets: [], operators: [], first_operator: null, wedged: null, recovery: null, unavailable: (e as Error).message };
    }
    const { approvals } = forActive;
    let s: Awaited<ReturnType<Approvals['load']>>;
    try {
      s = await approvals.load();
    } catch (e) {
      // The team store is offline: a freeze can still be signed here, against the operators last read.
      const last = (e as Error).name === 'TeamStoreOfflineError' ? approvals.operatorsLastRead() : null;
      if (!last) throw e;
      return {
        tickets: approvals.pendingTickets(),
        operators: last,
        first_operator: null,
        wedged: null,
        recovery: null,
        unavailable: null,
      };
    }
    return {
      tickets: approvals.pendingTickets(),
      operators: approvals.activeOperators(),
      first_operator: s.operators.size === 0 ? approvals.credential : null,
      wedged:
        s.operators.size === 0 ? null : await approvals.wedged().then((why) => (why ? { why, credential: approvals.credential } : null)),
      recovery: s.recovery ? { effective_at: s.recovery.effective_at, reason: s.recovery.reason } : null,
      unavailable: null,
    };
  }

  async sign(ticket: string, operator: string, passphrase: string): Promise<{ signed: true; title: string }> {
    const { approvals } = this.forActive();
    const t = await approvals.sign(ticket, operator, passphrase).catch(asInput);
    this.opts.onChange();
    void this.dispatch();
    return { signed: true, title: t.title };
  }

  /** A wedged desk's recovery: the vault's own credential (none on a Sandbox-only desk), then the cooling-off. */
  async recover(reason: string, vaultPassphrase: string | undefined): Promise<{ effective_at: number }> {
    const { approvals } = this.forActive();
    if (approvals.credential === 'vault') {
      if (!this.opts.vault) throw new InputError([], 'this desk has no vault.');
      await this.opts.vault.unlock(vaultPassphrase ?? '');
    }
    const r = await approvals.recover(reason).catch(asInput);
    this.opts.onChange();
    return r;
  }

  async createFirstOperator(name: string, passphrase: string, vaultPassphrase: string | undefined): Promise<string> {
    const { approvals } = this.forActive();
    if (approvals.credential === 'vault') {
      // The vault's own credential, so that a script in the window cannot become the first operator.
      if (!this.opts.vault) throw new InputError([], 'this desk has no vault.');
      await this.opts.vault.unlock(vaultPassphrase ?? '');
    }
    const id = await approvals.createFirstOperator(name, passphrase).catch(asInput);
    this.opts.onChange();
    return id;
  }

  async proposeOperator(name: string, newKey: NewOperatorKey | string, by: string, passphrase: string, role?: Role): Promise<string> {
    const { approvals } = this.forActive();
    const id = await approvals.proposeOperator(name, newKey, by, passphrase, role).catch(asInput);
    this.opts.onChange();
    return id;
  }

  async makeOwnKey(name: string, passphrase: string): Promise<{ id: string; enrolment: string; fingerprint: string }> {
    return this.forActive().approvals.makeOwnKey(name, passphrase).catch(asInput);
  }

  // ---- sending ----

  /**
   * Synchronous, from the loaded state: why no write of a profile may leave now (a freeze), or null. With
   * `kind`, for that kind of write: containment of a sub-account goes while frozen (governance/management.ts).
   */
  frozenReason(profileId: string, kind?: string): string | null {
    // Nothing is handed over before the journal is reconciled: a row journaled then would count as known.
    const reconciling = this.opts.session.reconcileHold(profileId);
    if (reconciling !== null) return reconciling;
    const s = this.domains.get(this.domainOf(profileId))?.cached();
    if (!s) {
      // Not read yet (the desk just started): hold until it is, then dispatch() resumes the executor.
      // Without this, a desk frozen before a restart would resume its approved writes at once.
      queueMicrotask(() => void this.dispatch());
      return 'the approvals are being read';
    }
    const readOnly = this.domains.get(this.domainOf(profileId))?.readOnly;
    if (readOnly) return readOnly;
    return s.frozen && !(kind !== undefined && containKind(kind)) ? `the desk is frozen (by ${s.frozen.by})` : null;
  }

  /** Whether the active profile's governed writes (of `kind`, if given) must wait (frozen, or the policy copy refused). */
  async holdReason(kind?: string): Promise<string | null> {
    const { approvals, session } = this.forActive();
    if (approvals.readOnly) return approvals.readOnly;
    const reconciling = this.opts.session.reconcileHold(session.id);
    if (reconciling !== null) return reconciling;
    const s = await approvals.load();
    if (s.frozen && !(kind !== undefined && containKind(kind))) return `the desk is frozen (by ${s.frozen.by})`;
    return (await approvals.policyStatus(session.id)).refused;
  }

  /** Hands every approved request of the active profile to its executor, once; serialized. */
  dispatch(): Promise<void> {
    const run = this.dispatching.then(() => this.dispatchNow());
    this.dispatching = run.catch((e: unknown) => this.opts.log(`[approvals] dispatch failed: ${(e as Error).message}`));
    return this.dispatching;
  }

  private async dispatchNow(): Promise<void> {
    const { approvals, session } = this.forActive();
    // Frozen, containment still goes (readyToSend offers only that then): held for every kind, nothing does.
    if (!session.writes || (await this.holdReason('sub_account_lock')) !== null) return;
    // Intents a freeze held in the journal go on (the executor ignores those already moving).
    if ((await this.holdReason()) === null) void session.writes.resume().catch(() => {});
    for (const p of await approvals.readyToSend(session.id)) {
      const sigs = approvals.signaturesOf(p);
      const by = [...new Set(sigs.map((x) => x.name))].join(', ');
      const rows: { ref: string; kind: string; body: RequestPayload['body']; note?: string; signer?: string }[] =
        p.what === 'batch' ? (JSON.parse(p.payload) as BatchPayload).rows : [{ ref: p.ref, ...(JSON.parse(p.payload) as RequestPayload) }];
      // On a team the hand-over comes first: its record and the send leases in one transaction, so that no
      // write leaves before exactly one desk holds it. Alone, the intents come first (a crash between the
      // two finds the request not yet handed over and hands it over again, each intent once).
      const leased = approvals.leases !== null;
      if (leased) {
        for (const r of rows) this.handing.add(r.ref);
        try {
          await approvals.markDispatched(
            p.ref,
            session.id,
            rows.map((r) => r.ref),
          );
        } catch (e) {
          for (const r of rows) this.handing.delete(r.ref);
          throw e;
        }
      }
      try {
        if (!(await this.handRows(p, rows, sigs, by, session))) return;
      } finally {
        for (const r of rows) this.handing.delete(r.ref);
      }
      if (!leased) await approvals.markDispatched(p.ref, session.id);
      this.opts.onChange();
    }
  }

  /** Gives each row to the executor at the §8.2 pace; false when a freeze (or a profile switch) stopped it. */
  private async handRows(
    p: Proposal,
    rows: { ref: string; kind: string; body: RequestPayload['body']; note?: string; signer?: string }[],
    sigs: OperatorSignature[],
    by: string,
    session: ActiveSession,
  ): Promise<boolean> {
    const writes = session.writes!;
    for (const row of rows) {
      // A row an earlier run handed over is the executor's already (resume() drives it): never handed twice.
      // One journaled without its approval (a crash between the two records) is handed over to finish it.
      const held = p.what === 'batch' ? session.journal?.intent(row.ref) : undefined;
      if (held && held.state !== 'pending_approval') continue;
      const wait = (this.lastHanded.get(row.kind) ?? -Infinity) + (PACE_MS[row.kind] ?? 0) - this.now();
      if (wait > 0) await new Promise((r) => setTimeout(r, wait));
      // A freeze (or a refused policy copy) while waiting stops the rest of the batch here.
      if ((await this.holdReason(row.kind)) !== null || this.opts.session.active() !== session) return false;
      this.lastHanded.set(row.kind, this.now());
      void writes
        .dispatchApproved(row.ref, row.kind as never, row.body, sigs, by, {
          ...(p.what === 'batch' && row.note ? { note: row.note } : {}),
          ...(row.signer ? { signer: row.signer } : {}),
          approved_at: p.approved_at!,
        })
        .catch((e: unknown) => this.opts.log(`[approvals] ${row.ref}: ${(e as Error).message}`));
      if (p.what === 'batch') this.opts.onChange();
    }
    return true;
  }

  async close(): Promise<void> {
    this.closed = true;
    if (this.leaseTimer) clearInterval(this.leaseTimer);
    await this.keeping;
    await this.dispatching;
    // Closing twice (a host and a test both closing the core) must not close a file twice.
    this.domains.clear();
    for (const s of this.stores.splice(0)) await s.close();
  }
}

/** On a team store, the desk each signature of `p` was made at (the drafter's, then each approver's). */
function deskNames(approvals: Approvals, p: Proposal): Pick<ApprovalItem, 'desks'> {
  const d = approvals.desks(p.ref);
  if (!d?.drafted) return {};
  const signed = [
    { name: p.drafted_by.name, desk: d.drafted },
    ...p.signoffs.flatMap((x) => {
      const desk = d.signed.get(x.signed.operator);
      return desk ? [{ name: x.signed.name, desk }] : [];
    }),
  ];
  return { desks: { drafted: d.drafted, signed, here: d.here } };
}

function resilienceOf(s: Parameters<typeof wedgeMargin>[0], profile: string, at: number) {
  const w = wedgeMargin(s, profile, at);
  return { strictest: w.need.what, needs: operatorsFor(w.need), signers: w.signers, margin: w.margin, able: w.able };
}

function asInput(e: unknown): never {
  if (
    e instanceof GovernanceError ||
    (e instanceof Error && e.name === 'OperatorPassphraseError') ||
    (e instanceof Error && e.name === 'StoreConflictError') ||
    (e instanceof Error && e.name === 'EnrolmentCodeError')
  ) {
    throw new InputError([], e.message);
  }
  throw e;
}

function batchSummary(b: BatchPayload): string {
  const kinds = [...new Set(b.rows.map((r) => r.kind.replace(/_/g, ' ')))].join(' and ');
  const totals = b.totals.map((t) => `${t.amount} ${t.currency}`).join(', ');
  const from = b.source.file ? ` from ${b.source.file}` : '';
  return `${b.title}: ${b.rows.length} ${kinds}${b.rows.length === 1 ? '' : 's'}${from}, ${totals}`;
}

function summarize(p: Proposal, req: RequestPayload | null): string {
  if (req && isManagementKind(req.kind)) return managementSummary(req.kind, req.body);
  if (req) {
    const b = req.body;
    return req.kind === 'withdrawal'
      ? `${String(b.amount)} ${String(b.currency)} to ${String(b.address)} on ${String(b.chain)}`
      : req.kind === 'uid_transfer'
        ? `${String(b.amount)} ${String(b.currency)} to user ${String(b.receive_uid)}`
        : req.kind === 'sub_own_transfer'
          ? `${String(b.amount)} ${String(b.currency)} from ${String(b.from)} to ${String(b.to)} of sub-account ${req.signer ?? '?'}, signed by its key`
          : req.kind === 'spot_order'
            ? `${String(b.side)} ${String(b.amount)} ${String(b.currency_pair)} ${b.type === 'limit' ? `at ${String(b.price)}` : 'at market'}${req.signer ? ` for sub-account ${req.signer}` : ''}`
            : req.kind === 'spot_cancel'
              ? `cancel order ${String(b.order_id)} of ${String(b.currency_pair)}${req.signer ? ` for sub-account ${req.signer}` : ''}`
              : req.kind === 'spot_cancel_all'
                ? `cancel every open ${String(b.currency_pair)} order${req.signer ? ` for sub-account ${req.signer}` : ''}`
                : `${req.kind.replace(/_/g, ' ')} of ${String(b.amount)} ${String(b.currency)}`;
  }
  const o = JSON.parse(p.payload) as { name?: string; id?: string };
  switch (p.what) {
    case 'add_operator':
      return `add operator ${o.name ?? ''}`;
    case 'remove_operator':
      return `remove operator ${o.id ?? ''}`;
    case 'policy':
      return `new policy for profile ${p.profile ?? ''}`;
    default:
      return 'unfreeze the desk';
  }
}
