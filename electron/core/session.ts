import type { PermissionGroup } from '../../shared/api/environments.ts';
import { permissionGroupFor } from '../../shared/api/environments.ts';
import { TotalBalance } from '../../shared/api/records.ts';
import type { AuditorProfileInput, ProfileInput, ProfileSummary } from '../../shared/ipc.ts';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { ApiClient, type ApiRequest, type LinkOutcome, type UnreadRecord } from './client/client.ts';
import { AuditorProfileError, InputError, LockedError, NoProfileError } from './errors.ts';
import { SubKeyClients } from './client/subKeys.ts';
import type { BucketState, Scheduler } from './client/scheduler.ts';
import { Scheduler as RateScheduler } from './client/scheduler.ts';
import type { WindowFirst } from './client/windowFirst.ts';
import { summarize, type Profile } from './profiles/profile.ts';
import { wipeProfile, type ProfileStore } from './profiles/store.ts';
import type { VaultPort } from './vaultPort.ts';
import { archiveAndRestart } from './journal/archive.ts';
import { Journal, JournalDamagedError, type JournalDamage, type JournalOptions } from './journal/journal.ts';
import { fileJournalKey, type JournalKey } from './journal/mac.ts';
import { newOrderId } from './writes/ids.ts';
import { fileRegistry } from './journal/registry.ts';
import type { JournalSource } from './journal/audit.ts';
import { WriteExecutor, type WriteEvent } from './writes/executor.ts';
import { DEFAULT_SETTLE_MS, MIN_LIVE_SETTLE_MS } from './writes/doubt.ts';
import type { IntentView } from './journal/intents.ts';
import { describeFindings, reconcile } from './reconcile/reconcile.ts';
import { readWatermark, watermarkPath, writeWatermark } from './reconcile/watermark.ts';
import { journalIdOf } from './journal/verify.ts';

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
/** A reconciliation that could not read the exchange is tried again after this pause, doubling up to the last. */
const RECONCILE_RETRY_MS = [2_000, 5_000, 15_000, 60_000];

/**
 * Which profile is active and the one client that signs for it. The client (and with it every
 * secret) exists only while the vault is unlocked; locking drops it.
 */
export class Session {
  private current: ActiveSession | null = null;
  readonly scheduler: Scheduler;
  private poller: ReturnType<typeof setInterval> | null = null;
  private readonly journals = new Map<string, Journal>();
  private readonly damaged = new Map<string, JournalDamage>();
  /** Why a profile's executor may not send yet: its journal is being reconciled with the exchange. */
  private readonly reconciling = new Map<string, string>();
  /** Where the reconciliation that found a profile's journal behind the exchange read up to (set when archived). */
  private readonly behindThrough = new Map<string, number>();

  constructor(private readonly opts: SessionOptions) {
    this.scheduler = new RateScheduler({ onState: (busy) => opts.onBusyBuckets?.(busy) });
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
    for (const j of this.journals.values()) j.close();
    this.journals.clear();
  }

  private journalPath(id: string): string {
    return join(this.opts.journalDir!, `${id.replace(/[^A-Za-z0-9_-]/g, '_')}.jsonl`);
  }

  /**
   * Stored profiles' journals are keyed from the vault. The built-in Sandbox profile's is keyed by a
   * per-desk file: its own keys sit in clear in the Sandbox's credentials.json, so its journal guards
   * play money only, and it must work with no vault at all (the web host).
   */
  private journalOptions(id: string): JournalOptions {
    const sandbox = id === this.builtInId;
    const key: JournalKey = sandbox
      ? (this.deskKey ??= fileJournalKey(join(this.opts.journalDir!, 'desk-journal.key')))
      : () => this.opts.vault!.journalKey();
    return {
      key,
      registry: sandbox ? fileRegistry(join(this.opts.journalDir!, 'desk-journal.registry.json'), key) : this.opts.vault!.journalRegistry(),
      ...(this.opts.anchorDir ? { anchorDir: this.opts.anchorDir } : {}),
    };
  }

  private deskKey: JournalKey | null = null;

  private openJournal(id: string): Journal | null {
    let journal = this.journals.get(id);
    if (journal || this.damaged.has(id)) return journal ?? null;
    mkdirSync(this.opts.journalDir!, { recursive: true, mode: 0o700 });
    try {
      journal = Journal.open(this.journalPath(id), this.journalOptions(id));
    } catch (e) {
      if (!(e instanceof JournalDamagedError)) throw e;
      this.damaged.set(id, e.damage);
      this.opts.log?.(`[core] ${e.message} Writes on profile ${id} are stopped until an operator archives it.`);
      this.opts.onJournalChanged?.();
      return null;
    }
    this.journals.set(id, journal);
    if (journal.recovered) this.opts.onJournalChanged?.();
    return journal;
  }

  private openWrites(
    id: string,
    client: ApiClient,
    subKeys: SubKeyClients,
    live: boolean,
  ): Pick<ActiveSession, 'writes' | 'journal' | 'damage'> {
    // An auditor profile writes nothing: no executor, no journal, nothing to reconcile with an exchange it cannot ask.
    if (!this.opts.journalDir || this.isAuditor(id)) return { writes: null, journal: null, damage: null };
    const journal = this.damaged.has(id) ? null : this.openJournal(id);
    if (!journal) return { writes: null, journal: null, damage: this.damaged.get(id)! };
    this.reconciling.set(id, 'the desk is reconciling its journal with the exchange');
    const writes = new WriteExecutor({
      journal,
      client,
      subClient: (uid) => subKeys.client(uid),
      // A live exchange accepts a request up to 60 s past its Timestamp (§5.6): no setting waits less.
      settleMs: Math.max(this.opts.settleMs?.() ?? DEFAULT_SETTLE_MS, live ? MIN_LIVE_SETTLE_MS : 0),
      newId: () => newOrderId(Date.now(), this.journalOptions(id).key()),
      blocked: (v) => (this.locked() ? 'the desk is locked' : (this.reconciling.get(id) ?? this.opts.hold?.(id, v.kind) ?? null)),
      ...(this.opts.gate ? { gate: (v: IntentView, deadline: number) => this.opts.gate!(id, v, deadline) } : {}),
      ...(this.opts.requestTimeoutMs ? { requestTimeoutMs: this.opts.requestTimeoutMs } : {}),
      keySink: (uid, key, secret) => this.keepSubKey(id, subKeys, uid, key, secret),
      keyGone: (uid, key) => this.forgetSubKey(id, subKeys, uid, key),
    });
    if (this.opts.onWrite) writes.on(this.opts.onWrite);
    void this.reconcileThenResume(id, journal, client, subKeys, writes);
    return { writes, journal, damage: null };
  }

  /**
   * A created key's secret, straight from the exchange's answer: sealed in the vault with the profile
   * (the built-in Sandbox profile keeps it in memory, as its own keys are play money in the clear), and
   * signing that sub-account's requests at once. `secret` is the caller's, wiped by it.
   */
  private keepSubKey(id: string, subKeys: SubKeyClients, uid: string, key: string, secret: Buffer): void {
    const own = Buffer.from(secret);
    if (id === this.builtInId) {
      const p = this.opts.builtIn!;
      p.subKeys = [...(p.subKeys ?? []).filter((k) => k.uid !== uid), { uid, key, secret: own }];
    } else {
      if (!this.opts.store || !this.opts.vault) throw new Error('this desk keeps no stored profiles');
      this.opts.store.keepSubKey(id, uid, key, own, this.opts.vault.box());
      const live = this.current?.id === id ? this.current.profile : null;
      if (live) live.subKeys = [...(live.subKeys ?? []).filter((k) => k.uid !== uid), { uid, key, secret: own }];
    }
    subKeys.replace({ uid, key, secret: own });
    this.opts.onProfilesChanged?.(this.activeId());
  }

  /** A sub-account key removed at the exchange: the profile and the signing clients drop it, if it is the one held. */
  private forgetSubKey(id: string, subKeys: SubKeyClients, uid: string, key: string): void {
    const drop = (p: Profile): void => {
      const gone = p.subKeys?.find((k) => k.uid === uid && k.key === key);
      if (!gone) return;
      p.subKeys = p.subKeys!.filter((k) => k !== gone);
      if (Buffer.isBuffer(gone.secret)) gone.secret.fill(0);
    };
    if (id === this.builtInId) drop(this.opts.builtIn!);
    else {
      if (this.opts.store && this.opts.vault && !this.locked()) this.opts.store.dropSubKey(id, uid, key, this.opts.vault.box());
      if (this.current?.id === id) drop(this.current.profile);
    }
    subKeys.remove(uid, key);
    this.opts.onProfilesChanged?.(this.activeId());
  }

  /**
   * Before the executor sends anything after a start or an unlock: the exchange's records of this desk's
   * ids against the journal (reconcile/reconcile.ts). Behind them, the journal is damaged and nothing is
   * sent; unreadable, it is tried again (nothing is sent meanwhile); in step, the executor resumes.
   */
  private async reconcileThenResume(
    id: string,
    journal: Journal,
    client: ApiClient,
    subKeys: SubKeyClients,
    writes: WriteExecutor,
  ): Promise<void> {
    const path = this.journalPath(id);
    const key = this.journalOptions(id).key;
    const mine = (): boolean => this.current?.writes === writes;
    // Called while the session is being made: it is the current one only after the first await.
    await (this.opts.backgroundAfter?.() ?? Promise.resolve());
    for (let attempt = 0; ; attempt++) {
      if (!mine()) return;
      try {
        const intents = journal.intents();
        const pairs = new Map<string, { pair: string; account?: string; client: ApiClient }>();
        for (const v of intents) {
          if (v.kind !== 'spot_order') continue;
          const account = v.body.account === undefined ? undefined : String(v.body.account);
          const k = `${v.signer ?? 'main'} ${String(v.body.currency_pair)} ${account ?? ''}`;
          if (!pairs.has(k))
            pairs.set(k, {
              pair: String(v.body.currency_pair),
              ...(account ? { account } : {}),
              client: v.signer ? subKeys.client(v.signer) : client,
            });
        }
        const r = await reconcile({
          client,
          intents,
          watermark: readWatermark(watermarkPath(path), key, journalIdOf(path)),
          key: key(),
          orderReaders: [...pairs.values()],
          now: Date.now(),
        });
        if (!mine()) return;
        if (r.findings.length) return this.behind(id, writes, describeFindings(r.findings), r.findings.length, r.through);
        writeWatermark(watermarkPath(path), key, journalIdOf(path), { through: r.through });
        this.opts.log?.(`[core] journal of profile ${id} reconciled with the exchange (${r.requests} requests); writes resume`);
        break;
      } catch (e) {
        if (!mine()) return;
        const reason = `the desk could not reconcile its journal with the exchange (${(e as Error).message}); it tries again, and sends nothing until it can`;
        this.reconciling.set(id, reason);
        this.opts.log?.(`[core] ${reason}`);
        await new Promise((r) => setTimeout(r, RECONCILE_RETRY_MS[Math.min(attempt, RECONCILE_RETRY_MS.length - 1)]).unref?.());
      }
    }
    this.reconciling.delete(id);
    void writes.resume().catch((e: unknown) => this.opts.log?.(`[core] resuming writes failed: ${(e as Error).message}`));
    if (this.poller) clearInterval(this.poller);
    this.poller = setInterval(() => void writes.pollStatuses().catch(() => {}), STATUS_POLL_MS);
    this.poller.unref?.();
    this.opts.onWritesReady?.();
  }

  /** A fresh id for a write of the active profile, carrying its journal key's tag (writes/ids.ts). */
  newOrderId(now: number = Date.now()): string {
    return this.opts.journalDir ? newOrderId(now, this.journalOptions(this.active().id).key()) : newOrderId(now);
  }

  /** Why a profile's writes wait for the reconciliation with the exchange, or null once it is done. */
  reconcileHold(id: string): string | null {
    return this.reconciling.get(id) ?? null;
  }

  /** The journal is behind the exchange: the damaged state, as for a journal that fails verification. */
  private behind(id: string, writes: WriteExecutor, reason: string, found: number, through: number): void {
    const damage: JournalDamage = { reason, entry: null, missing: found };
    this.damaged.set(id, damage);
    this.behindThrough.set(id, through);
    void writes.stop();
    if (this.current?.id === id) Object.assign(this.current, { writes: null, journal: null, damage });
    this.opts.log?.(`[core] ${reason} Writes on profile ${id} are stopped until an operator archives the journal.`);
    this.opts.onJournalChanged?.();
  }

  /** The active profile's journal, for the Journal page (null on a desk that keeps no journal). */
  auditSource(): JournalSource | null {
    const s = this.active();
    if (!this.opts.journalDir) return null;
    const { key, registry, anchorDir } = this.journalOptions(s.id);
    return {
      journal: 'profile',
      path: this.journalPath(s.id),
      key,
      ...(registry ? { registry } : {}),
      ...(anchorDir ? { anchorDir } : {}),
    };
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
    // A journal found behind the exchange verified and is still open: close it before it is moved aside.
    const open = this.journals.get(s.id);
    if (open) {
      open.close();
      this.journals.delete(s.id);
    }
    const { journal, archivedTo, carriedOver } = archiveAndRestart(this.journalPath(s.id), damage, this.journalOptions(s.id));
    // The operator settles what the old journal left (and what a reconciliation found): the next
    // reconciliation starts after it, or the new journal would be found behind the old one's writes.
    const through = this.behindThrough.get(s.id) ?? Math.floor(Date.now() / 1000);
    writeWatermark(watermarkPath(this.journalPath(s.id)), this.journalOptions(s.id).key, journalIdOf(this.journalPath(s.id)), { through });
    this.behindThrough.delete(s.id);
    this.opts.log?.(
      `[core] damaged journal of profile ${s.id} archived as ${archivedTo}; ${carriedOver} unfinished writes carried over as needing attention`,
    );
    this.damaged.delete(s.id);
    this.journals.set(s.id, journal);
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

  /**
   * `learnFor`: the stored profile whose permissions this client's refusals correct, whoever sends through
   * it (a page, a background sync, a write). The probe of a key not yet saved corrects nothing.
   */
  private makeClient(profile: Profile, learnFor?: string): ApiClient {
    const limitsOff = profile.environment === 'sandbox' && profile.limitsOff === true;
    const client = new ApiClient({
      // An auditor profile has no address either (a Sandbox auditor's is empty); its client never sends.
      baseUrl: profile.auditor ? 'http://127.0.0.1/api/v4' : profile.baseUrl,
      credentials: profile.credentials,
      svc: profile.svc,
      ...(profile.auditor ? { keyless: () => new AuditorProfileError() } : {}),
      ...(limitsOff ? { limitsOff: true } : { scheduler: this.scheduler }),
      ...(this.opts.onLink ? { onLink: this.opts.onLink } : {}),
      ...(this.opts.windowFirst ? { windowFirst: this.opts.windowFirst } : {}),
      ...(learnFor !== undefined
        ? {
            onRefusal: (label, method, path) => this.learnFromLabel(label, method, path, { id: learnFor }),
            onUnread: (req, unread) => this.opts.onUnread?.(req, unread),
          }
        : {}),
    });
    // Learn the exchange's clock up front; should it fail, answers' X-In-Time and the one resync after a
    // REQUEST_EXPIRED still correct it.
    if (!profile.auditor) void client.syncClock('background').catch(() => {});
    return client;
  }

  private makeSubClients(id: string, profile: Profile): SubKeyClients {
    const limitsOff = profile.environment === 'sandbox' && profile.limitsOff === true;
    return new SubKeyClients({
      baseUrl: profile.baseUrl,
      svc: profile.svc,
      keys: profile.subKeys ?? [],
      ...(limitsOff ? { limitsOff: true } : { scheduler: this.scheduler }),
      onRefusal: (uid, label, method, path) => this.learnFromLabel(label, method, path, { id, uid }),
      ...(this.opts.onLink ? { onLink: this.opts.onLink } : {}),
    });
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
      const client = this.makeClient(profile, id);
      const subKeys = this.makeSubClients(id, profile);
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
      await this.makeClient(profile).request({ method: 'GET', path: '/wallet/total_balance', priority: 'action' }, TotalBalance);
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

  /**
   * READ_ONLY or FORBIDDEN proves the key's permission for that group is less than declared: record
   * what the exchange proved so that the desk stops offering what the key cannot do. `key.uid`: the
   * refusal answered that sub-account's key of profile `key.id`, not the main key.
   */
  private learnFromLabel(label: string, method: string, path: string, key: { id: string; uid?: string }): void {
    if (label !== 'READ_ONLY' && label !== 'FORBIDDEN') return;
    const group: PermissionGroup | null = permissionGroupFor(method, path);
    if (!group || key.id === this.builtInId || !this.opts.store) return;
    const level = label === 'READ_ONLY' ? 'read' : 'none';
    const changed =
      key.uid !== undefined
        ? this.opts.store.correctSubPermission(key.id, key.uid, group, level)
        : this.opts.store.correctPermission(key.id, group, level);
    if (changed) this.opts.onProfilesChanged?.(key.id);
  }
}
