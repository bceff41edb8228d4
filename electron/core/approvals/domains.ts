import { join } from 'node:path';
import { fileJournalKey, type JournalKey } from '../journal/mac.ts';
import { fileRegistry } from '../journal/registry.ts';
import type { JournalSource } from '../journal/audit.ts';
import type { GovernanceRecord } from '../journal/records.ts';
import { DEFAULT_COOLING_OFF_MS, removedEntries, type GovernanceRules } from '../governance/state.ts';
import type { ActiveSession, Session } from '../session.ts';
import type { VaultPort } from '../vaultPort.ts';
import { AddressBook } from './addressBook.ts';
import { LocalGovernanceStore } from './localStore.ts';
import { Approvals } from './service.ts';
import type { Domain, GovernanceStore, StoreBase, TeamStores } from './store.ts';

// One governance per trust domain (the vault's, for stored profiles; a Sandbox-only one whose records a
// per-desk file key authenticates, for play money): its store, opened at first use (this desk's own
// journal, or a team's store the TeamStores open), its Approvals, its address book and the journal its
// audit reads. Every part of DeskApprovals (deskApprovals.ts) reaches a domain through this.

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
  notify?: (n: { title: string; body: string; tag: string; done?: boolean }) => void;
  log: (line: string) => void;
}

/** An auditor desk of a team: it reads and verifies the team's queue and records, and signs and sends nothing. */
const AUDITOR = "this is an auditor desk: it reads and verifies the team's queue and records, and signs and sends nothing";
/** The same, while the active profile is an auditor profile (a desk with no exchange key), whatever the desk was started with. */
const AUDITOR_PROFILE =
  "this is an auditor profile: it has no exchange key; it reads and verifies the approvals' queue and records, and signs and sends nothing";

/** What the domains ask of the rest of DeskApprovals (sending.ts). */
export interface DomainHooks {
  /** Hands every approved request of the active profile to its executor (another desk's records came in). */
  dispatch(): Promise<void>;
  /** Waits for the hand-over under way, if any. */
  settled(): Promise<void>;
  /** Starts keeping the send leases of a team store, every third of `leaseMs` (once). */
  keepLeasesEvery(leaseMs: number): void;
}

export class DomainGovernance {
  private readonly domains = new Map<Domain, Approvals>();
  private readonly stores: GovernanceStore[] = [];
  private readonly audit = new Map<Domain, { source: JournalSource; rules: GovernanceRules }>();
  private readonly now: () => number;
  private readonly books = new Map<Domain, AddressBook>();
  private closed = false;
  /** Each open domain's store, to close when the domain moves to (or from) a team store. */
  private readonly storeOf = new Map<Domain, GovernanceStore>();
  /** The last reason a domain's records were not read, logged once until a read succeeds. */
  private readonly unread = new Map<Domain, string>();

  constructor(
    private readonly opts: DeskApprovalsOptions,
    private readonly hooks: DomainHooks,
  ) {
    this.now = opts.now ?? Date.now;
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
    await this.hooks.settled();
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

  domainOf(profileId: string): Domain {
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
  coolingOff(domain: Domain): number {
    return domain === 'sandbox' ? this.opts.coolingOffMs : DEFAULT_COOLING_OFF_MS;
  }

  forDomain(domain: Domain): Approvals {
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
      if (team) this.hooks.keepLeasesEvery(team.leaseMs);
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
        // The same tag: the "Signature needed" notice is replaced by this one, done (read) already.
        onClosed: (t, { withdrawn, why }) =>
          this.opts.notify?.({
            title: withdrawn ? 'Signature no longer needed' : 'Signature no longer waiting',
            body: withdrawn ? `${t.title}: withdrawn from the confirmation window, ${why}.` : `${t.title}: ${why}.`,
            tag: `ticket:${t.id}`,
            done: true,
          }),
        // Another desk of the team signed or drafted: the pages refresh, and a request now approved goes out.
        onRecordsChanged: (e) => {
          // Re-checked every few seconds (team/recheck.ts): a store that stays refused is logged once, not each time.
          if (e && e.message !== this.unread.get(domain)) this.opts.log(`[approvals] the team's records were not read: ${e.message}`);
          if (e) this.unread.set(domain, e.message);
          else this.unread.delete(domain);
          this.opts.onChange();
          void this.hooks.dispatch();
        },
      });
      this.domains.set(domain, approvals);
    }
    return approvals;
  }

  /** The governance journal of the active profile's domain and the rules its signatures are checked under. */
  auditSource(): { source: JournalSource; rules: GovernanceRules } {
    this.forActive();
    return this.audit.get(this.domainOf(this.opts.session.active().id))!;
  }

  /** A domain's Approvals if it is open already, for synchronous checks (the executor's "may I send now?"). */
  opened(profileId: string): Approvals | undefined {
    return this.domains.get(this.domainOf(profileId));
  }

  /** The journal and rules a domain's signatures are checked under (the domain is open). */
  auditOf(domain: Domain): { source: JournalSource; rules: GovernanceRules } {
    return this.audit.get(domain)!;
  }

  /** From now on no domain is opened again: a dispatch queued before close() must not reopen a store. */
  closing(): void {
    this.closed = true;
  }

  async close(): Promise<void> {
    // Closing twice (a host and a test both closing the core) must not close a file twice.
    this.domains.clear();
    for (const s of this.stores.splice(0)) await s.close();
  }
}
