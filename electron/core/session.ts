import type { AuditorProfileInput, ProfileInput, ProfileSummary } from '../../shared/ipc.ts';
import { TotalBalance } from '../../shared/api/records.ts';
import type { ApiClient, ApiRequest, LinkOutcome, UnreadRecord } from './client/client.ts';
import { InputError, LockedError, NoProfileError } from './errors.ts';
import type { SubKeyClients } from './client/subKeys.ts';
import type { BucketState, Scheduler } from './client/scheduler.ts';
import { Scheduler as RateScheduler } from './client/scheduler.ts';
import type { WindowFirst } from './client/windowFirst.ts';
import { summarize, type Profile } from './profiles/profile.ts';
import { wipeProfile, type ProfileStore } from './profiles/store.ts';
import type { VaultPort } from './vaultPort.ts';
import type { Journal, JournalDamage } from './journal/journal.ts';
import { newOrderId } from './writes/ids.ts';
import type { JournalSource } from './journal/audit.ts';
import { WriteExecutor, type WriteEvent } from './writes/executor.ts';
import { DEFAULT_SETTLE_MS, MIN_LIVE_SETTLE_MS } from './writes/doubt.ts';
import type { IntentView } from './journal/intents.ts';
import { ProfileClients } from './session/clients.ts';
import { ProfileJournals } from './session/journals.ts';
import { reconcileThenResume } from './session/reconcileThenResume.ts';
import { SubKeyKeeping } from './session/subKeyKeeping.ts';

export const SANDBOX_ID = 'sandbox';

export interface SessionOptions {
  /** Stored profiles (absent in tests that pin one profile). */
  store?: ProfileStore;
  vault?: VaultPort;
  /** The built-in Sandbox profile, or a pinned profile for tests and benchmarks. */
  builtIn?: Profile;
  /** Where each profile's write journal lives (`<dir>/<profile id>.jsonl`); without it writes are refused. */
  journalDir?: string;
  /** The host's state directory outside the data folder, where each journal's anchor is kept (journal/anchor.ts). */
  anchorDir?: string;
  /** How long a write stays in doubt after its attempt's deadline (the operator's setting; writes/doubt.ts). */
  settleMs?: () => number;
  onBusyBuckets?: (busy: BucketState[]) => void;
  /** Every request's outcome at the wire, on every client of every profile (the status bar's link). */
  onLink?: (outcome: LinkOutcome) => void;
  onProfilesChanged?: (activeId: string | null) => void;
  onWrite?: (e: WriteEvent) => void;
  /** The journal's state changed (found damaged, archived, a recovery shown or acknowledged). */
  onJournalChanged?: () => void;
  /** The active session opened (a profile chosen, the vault unlocked) or closed (null). */
  onActive?: (session: ActiveSession | null) => void;
  /** A list answer of the active profile's keys was read, with the records it set aside (client.ts, requestList). */
  onUnread?: (req: ApiRequest, unread: UnreadRecord[]) => void;
  /** Why no write (of `kind`) of the profile may leave now (a freeze), or null. */
  hold?: (profileId: string, kind?: string) => string | null;
  /** Whether the operators' approvals carry a write of the profile now (the executor's gate), or why not. */
  gate?: (profileId: string, v: IntentView, deadline: number) => Promise<string | null>;
  /** How long a write's attempt may take (its deadline; the client's timeout). Tests shorten it. */
  requestTimeoutMs?: number;
  /** A profile's executor is ready: approved requests waiting for it can be handed over. */
  onWritesReady?: () => void;
  /** Settles when the reconciliation with the exchange may begin (the executor sends nothing before it ends). */
  backgroundAfter?: () => Promise<void>;
  /** Given to every profile's client: background requests wait while the window is asking. */
  windowFirst?: WindowFirst;
  log?: (line: string) => void;
}

export interface ActiveSession {
  id: string;
  profile: Profile;
  client: ApiClient;
  /** A client per sub-account key of the profile, each on its own UID's buckets. */
  subKeys: SubKeyClients;
  writes: WriteExecutor | null;
  journal: Journal | null;
  /** Set when the profile's journal failed verification: reads go on, writes stop. */
  damage: JournalDamage | null;
}

/** What the operator is told about the active profile's journal. */
export interface JournalState {
  state: 'ok' | 'damaged' | 'none';
  damage: JournalDamage | null;
  recovered: { line: number; bytes: number; saved_to: string } | null;
}

/** Withdrawals accepted but not final are looked up this often (background priority). */
const STATUS_POLL_MS = 15_000;

/**
 * Which profile is active and the one client that signs for it. The client (and with it every
 * secret) exists only while the vault is unlocked; locking drops it.
 */
export class Session {
  private current: ActiveSession | null = null;
  readonly scheduler: Scheduler;
  private poller: ReturnType<typeof setInterval> | null = null;
  /** Null on a desk that keeps no journal: it refuses writes. */
  private readonly journals: ProfileJournals | null;
  /** Why a profile's executor may not send yet: its journal is being reconciled with the exchange. */
  private readonly reconciling = new Map<string, string>();
  private readonly clients: ProfileClients;
  private readonly subKeyKeeping: SubKeyKeeping;

  constructor(private readonly opts: SessionOptions) {
    this.scheduler = new RateScheduler({ onState: (busy) => opts.onBusyBuckets?.(busy) });
    const builtInId = (): string | null => this.builtInId;
    this.journals = opts.journalDir
      ? new ProfileJournals({
          dir: opts.journalDir,
          ...(opts.anchorDir ? { anchorDir: opts.anchorDir } : {}),
          ...(opts.vault ? { vault: opts.vault } : {}),
          builtInId,
          ...(opts.onJournalChanged ? { onChanged: opts.onJournalChanged } : {}),
          ...(opts.log ? { log: opts.log } : {}),
        })
      : null;
    this.clients = new ProfileClients({
      scheduler: this.scheduler,
      ...(opts.store ? { store: opts.store } : {}),
      builtInId,
      ...(opts.onLink ? { onLink: opts.onLink } : {}),
      onUnread: (req: ApiRequest, unread: UnreadRecord[]) => opts.onUnread?.(req, unread),
      ...(opts.windowFirst ? { windowFirst: opts.windowFirst } : {}),
      onCorrected: (id) => opts.onProfilesChanged?.(id),
    });
    this.subKeyKeeping = new SubKeyKeeping({
      ...(opts.builtIn ? { builtIn: opts.builtIn } : {}),
      builtInId,
      ...(opts.store ? { store: opts.store } : {}),
      ...(opts.vault ? { vault: opts.vault } : {}),
      live: (id) => (this.current?.id === id ? this.current.profile : null),
      locked: () => this.locked(),
      changed: () => this.opts.onProfilesChanged?.(this.activeId()),
    });
    opts.vault?.onChange(() => {
      // Locking drops the client and wipes its secrets; unlocking resumes the journal's unfinished writes.
      if (opts.vault!.isLocked()) this.drop();
      else this.start();
    });
  }

  /** Opens the active profile's session now, so that writes a previous run left unfinished are resumed. */
  start(): void {
    try {
      this.bindSealed();
      this.active();
    } catch (e) {
      if (!(e instanceof LockedError) && !(e instanceof NoProfileError))
        this.opts.log?.(`[core] cannot open the active profile: ${(e as Error).message}`);
    }
  }

  /** Profiles sealed before bindings existed are re-sealed, bound, at the first unlock (once). */
  private bindSealed(): void {
    const { store, vault } = this.opts;
    if (!store || !vault || vault.isLocked() || !store.needsBinding()) return;
    const n = store.bindSealed(vault.box());
    this.opts.log?.(`[core] re-sealed ${n} profile(s) bound to their id, environment and base address`);
  }

  private drop(): void {
    const old = this.current;
    this.current = null;
    if (old && old.id !== this.builtInId) wipeProfile(old.profile);
    if (old) this.opts.onActive?.(null);
    if (this.poller) clearInterval(this.poller);
    this.poller = null;
    // The journal stays open (one per profile, for the life of the core): a quick unlock or a switch
    // back must not race the old executor's stop for the same file.
    if (old?.writes) void old.writes.stop();
  }

  async close(): Promise<void> {
    const old = this.current;
    this.current = null;
    if (old) this.opts.onActive?.(null);
    if (this.poller) clearInterval(this.poller);
    this.poller = null;
    await old?.writes?.stop();
    if (old && old.id !== this.builtInId) wipeProfile(old.profile);
    this.journals?.closeAll();
  }

  private openWrites(
    id: string,
    client: ApiClient,
    subKeys: SubKeyClients,
    live: boolean,
  ): Pick<ActiveSession, 'writes' | 'journal' | 'damage'> {
    // An auditor profile writes nothing: no executor, no journal, nothing to reconcile with an exchange it cannot ask.
    const journals = this.journals;
    if (!journals || this.isAuditor(id)) return { writes: null, journal: null, damage: null };
    const journal = journals.damage(id) ? null : journals.open(id);
    if (!journal) return { writes: null, journal: null, damage: journals.damage(id)! };
    this.reconciling.set(id, 'the desk is reconciling its journal with the exchange');
    const writes = new WriteExecutor({
      journal,
      client,
      subClient: (uid) => subKeys.client(uid),
      // A live exchange accepts a request up to 60 s past its Timestamp (§5.6): no setting waits less.
      settleMs: Math.max(this.opts.settleMs?.() ?? DEFAULT_SETTLE_MS, live ? MIN_LIVE_SETTLE_MS : 0),
      newId: () => newOrderId(Date.now(), journals.options(id).key()),
      blocked: (v) => (this.locked() ? 'the desk is locked' : (this.reconciling.get(id) ?? this.opts.hold?.(id, v.kind) ?? null)),
      ...(this.opts.gate ? { gate: (v: IntentView, deadline: number) => this.opts.gate!(id, v, deadline) } : {}),
      ...(this.opts.requestTimeoutMs ? { requestTimeoutMs: this.opts.requestTimeoutMs } : {}),
      keySink: (uid, key, secret) => this.subKeyKeeping.keep(id, subKeys, uid, key, secret),
      keyGone: (uid, key) => this.subKeyKeeping.forget(id, subKeys, uid, key),
    });
    if (this.opts.onWrite) writes.on(this.opts.onWrite);
    void reconcileThenResume({
      id,
      journal,
      path: journals.path(id),
      key: journals.options(id).key,
      client,
      subKeys,
      writes,
      mine: () => this.current?.writes === writes,
      ...(this.opts.backgroundAfter ? { backgroundAfter: this.opts.backgroundAfter } : {}),
      waiting: (reason) => this.reconciling.set(id, reason),
      behind: (reason, found, through) => this.behind(id, writes, reason, found, through),
      inStep: () => this.resumeWrites(id, writes),
      ...(this.opts.log ? { log: this.opts.log } : {}),
    });
    return { writes, journal, damage: null };
  }

  /** The journal is in step with the exchange: unfinished writes go on, and accepted withdrawals are followed. */
  private resumeWrites(id: string, writes: WriteExecutor): void {
    this.reconciling.delete(id);
    void writes.resume().catch((e: unknown) => this.opts.log?.(`[core] resuming writes failed: ${(e as Error).message}`));
    if (this.poller) clearInterval(this.poller);
    this.poller = setInterval(() => void writes.pollStatuses().catch(() => {}), STATUS_POLL_MS);
    this.poller.unref?.();
    this.opts.onWritesReady?.();
  }

  /** A fresh id for a write of the active profile, carrying its journal key's tag (writes/ids.ts). */
  newOrderId(now: number = Date.now()): string {
    return this.journals ? newOrderId(now, this.journals.options(this.active().id).key()) : newOrderId(now);
  }

  /** Why a profile's writes wait for the reconciliation with the exchange, or null once it is done. */
  reconcileHold(id: string): string | null {
    return this.reconciling.get(id) ?? null;
  }

  /** The journal is behind the exchange: the damaged state, as for a journal that fails verification. */
  private behind(id: string, writes: WriteExecutor, reason: string, found: number, through: number): void {
    const damage: JournalDamage = { reason, entry: null, missing: found };
    this.journals!.markBehind(id, damage, through);
    void writes.stop();
    if (this.current?.id === id) Object.assign(this.current, { writes: null, journal: null, damage });
    this.opts.log?.(`[core] ${reason} Writes on profile ${id} are stopped until an operator archives the journal.`);
    this.opts.onJournalChanged?.();
  }

  /** The active profile's journal, for the Journal page (null on a desk that keeps no journal). */
  auditSource(): JournalSource | null {
    const s = this.active();
    return this.journals?.auditSource(s.id) ?? null;
  }

  journalState(): JournalState {
    const s = this.active();
    if (s.damage) return { state: 'damaged', damage: s.damage, recovered: null };
    if (!s.journal) return { state: 'none', damage: null, recovered: null };
    const r = s.journal.recovered;
    return { state: 'ok', damage: null, recovered: r ? { line: r.line, bytes: r.bytes, saved_to: r.savedTo } : null };
  }

  /** The operator has read the notice of a torn last line the journal cut at open. */
  acknowledgeRecovery(): JournalState {
    const s = this.active();
    if (s.journal) s.journal.recovered = null;
    this.opts.onJournalChanged?.();
    return this.journalState();
  }

  /** Keeps the damaged journal as evidence, starts a new one, and carries its unfinished writes over as needing attention. */
  archiveDamagedJournal(): { archived_to: string; carried_over: number } {
    const s = this.active();
    const damage = s.damage;
    if (!damage) throw new InputError([], 'The journal of this profile verified; there is nothing to archive.');
    const { archivedTo, carriedOver } = this.journals!.archive(s.id, damage);
    this.opts.log?.(
      `[core] damaged journal of profile ${s.id} archived as ${archivedTo}; ${carriedOver} unfinished writes carried over as needing attention`,
    );
    this.drop();
    this.start();
    this.opts.onJournalChanged?.();
    return { archived_to: archivedTo, carried_over: carriedOver };
  }

  private get builtInId(): string | null {
    return this.opts.builtIn ? (this.opts.builtIn.id ?? SANDBOX_ID) : null;
  }

  private locked(): boolean {
    return this.opts.vault?.isLocked() ?? false;
  }

  activeId(): string | null {
    const stored = this.opts.store?.activeId() ?? null;
    if (stored && this.opts.store!.has(stored)) return stored;
    return this.builtInId;
  }

  list(): ProfileSummary[] {
    const builtIn = this.opts.builtIn ? [{ ...summarize(this.opts.builtIn), id: this.builtInId!, built_in: true }] : [];
    return [...builtIn, ...(this.opts.store?.summaries() ?? [])];
  }

  activeSummary(): ProfileSummary | null {
    const id = this.activeId();
    return this.list().find((p) => p.id === id) ?? null;
  }

  /** The profile active() opens, without opening it (no client, no journal): throws as active() does. */
  openableId(): string {
    if (this.locked()) throw new LockedError();
    const id = this.activeId();
    if (!id) throw new NoProfileError();
    return id;
  }

  /** The active profile and its client; throws while locked or when none is chosen. */
  active(): ActiveSession {
    const id = this.openableId();
    if (this.current?.id !== id) {
      this.drop();
      const profile = id === this.builtInId ? this.opts.builtIn! : this.opts.store!.open(id, this.opts.vault!.box());
      const client = this.clients.main(profile, id);
      const subKeys = this.clients.subs(id, profile);
      this.current = { id, profile, client, subKeys, ...this.openWrites(id, client, subKeys, profile.environment !== 'sandbox') };
      this.opts.onActive?.(this.current);
    }
    return this.current;
  }

  select(id: string): ProfileSummary {
    if (id !== this.builtInId && !this.opts.store?.has(id)) throw new InputError(['id'], `there is no profile ${id}`);
    this.opts.store?.setActive(id === this.builtInId ? null : id);
    this.drop();
    this.start();
    this.opts.onProfilesChanged?.(this.activeId());
    return this.activeSummary()!;
  }

  /** One read call with the new key before anything is stored: a refusal comes back with its label and nothing is saved. */
  async save(input: ProfileInput): Promise<ProfileSummary> {
    if (!this.opts.store || !this.opts.vault) throw new InputError([], 'this desk keeps no stored profiles');
    if (this.locked()) throw new LockedError();
    const box = this.opts.vault.box();
    const profile = this.opts.store.resolve(input, box);
    try {
      await this.clients.main(profile).request({ method: 'GET', path: '/wallet/total_balance', priority: 'action' }, TotalBalance);
      this.opts.store.save(profile, box);
    } finally {
      wipeProfile(profile);
    }
    if (this.current?.id === profile.id) this.drop();
    this.opts.onProfilesChanged?.(this.activeId());
    return this.list().find((p) => p.id === profile.id)!;
  }

  /** An auditor profile: stored with no key, so nothing is asked of the exchange to save it (and nothing is sealed). */
  saveAuditor(input: AuditorProfileInput): ProfileSummary {
    if (!this.opts.store) throw new InputError([], 'this desk keeps no stored profiles');
    if (this.locked()) throw new LockedError();
    const saved = this.opts.store.saveAuditor(input);
    if (this.current?.id === saved.id) this.drop();
    this.opts.onProfilesChanged?.(this.activeId());
    return saved;
  }

  /** Whether profile `id` (the active one by default) is an auditor profile: it has no exchange key. */
  isAuditor(id: string | null = this.activeId()): boolean {
    return id !== null && this.list().some((p) => p.id === id && p.auditor === true);
  }

  remove(id: string): void {
    if (id === this.builtInId) throw new InputError(['id'], 'the Sandbox profile is built in and cannot be removed');
    // Removing a sealed key changes the vault's contents: not from a locked desk.
    if (this.locked()) throw new LockedError('The desk is locked. Unlock it before removing a profile.');
    if (this.current?.id === id) this.drop();
    if (!this.opts.store?.remove(id)) throw new InputError(['id'], `there is no profile ${id}`);
    this.opts.onProfilesChanged?.(this.activeId());
  }
}
