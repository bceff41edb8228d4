import pg from 'pg';
import { join } from 'node:path';
import type { GovernanceBody, GovernanceRecord } from '../journal/records.ts';
import { signAs, type OperatorKey } from '../operators/keys.ts';
import { activeAt, GovernanceError, type GovernanceRules, type GovernanceState } from '../governance/state.ts';
import { OperatorShelf } from '../approvals/operatorShelf.ts';
import { StoreConflictError, type GovernanceStore, type StoreAudit } from '../approvals/store.ts';
import { DeskIdentity, deskFingerprint, type Sealer } from './deskIdentity.ts';
import { certText, genesisLink } from './envelope.ts';
import { migrate } from './migrate.ts';
import { pgConnection, teamUrlRefusal } from './url.ts';
import { TeamStoreOfflineError, TeamTamperError } from './errors.ts';
import { reach, teamPool } from './connection.ts';
import { postKept } from './keptFreezes.ts';
import { DEFAULT_LEASE_MS, PgSendLeases, takeLeases } from './leases.ts';
import { DEFAULT_RECHECK_MS, LocalDigests, RecheckTimer, storeUnchanged, type WindowDigest } from './recheck.ts';
import { readClock, skewRefusal, STORE_NOW_SQL, type ClockReading } from './storeClock.ts';
import { foundingRows } from './founding.ts';
import { NO_RECOVERY, verifyRows, type StoreRow } from './verify.ts';
import { DeskIndex, foldOwn, noneVerified, touchedFrom, type RequestDesks, type Tampered, type Verified } from './verified.ts';
import { CHANNEL, insertRows, signRows } from './append.ts';
import { StoreListener } from './listener.ts';

export { CHANNEL, TeamStoreOfflineError, TeamTamperError };
export type { Tampered };

// The governance records of a team on PostgreSQL. The database is a notice board, not a trusted party:
// every read verifies every row from the team's founding record on (verify.ts), and a row that does not
// verify stops the read with a TeamTamperError naming it, so nothing it would authorise is sent. Operator keys and policy copies stay on the desk (OperatorShelf):
// the policy in force is what the verified records say, and each desk checks its own copy against them.

export interface PgStoreOptions {
  /** postgresql:// URL of the team's database. */
  url: string;
  /** The database's password, kept apart from the URL (sealed in the desk's keeping: team/kept.ts). */
  password?: string;
  /** This desk's own folder: operator keys, policy copies, desk key, certificate and pin. */
  dir: string;
  /** The rules the desk folds governance under (the quorums a desk certificate's operator is judged by). */
  rules: GovernanceRules;
  now?: () => number;
  /** The founding record's link as the founding desk showed it; absent, the first desk to read pins what it finds. */
  founding?: string;
  /** How long a send lease lasts unless renewed (leases.ts). */
  leaseMs?: number;
  /** Seals the desk key (deskIdentity.ts): the vault's, on a stored profiles' team. */
  sealer?: Sealer;
  /** How often every row is re-checked against what this desk verified (recheck.ts); tests use a short one. */
  recheckMs?: number;
}

export class PgGovernanceStore implements GovernanceStore {
  private readonly shelf: OperatorShelf;
  private readonly identity: DeskIdentity;
  private readonly now: () => number;
  private verified: Verified = noneVerified();
  /** The highest seq this desk knows of (read or written): notifications at or below it are its own or old news. */
  private knownSeq = 0;
  private readonly listeners = new Set<() => void>();
  private readonly listener: StoreListener;
  private closed = false;
  /** Whether the last read failed (tampered or offline): then every re-check reads again, so a restored store is seen. */
  private failed = false;
  private tamper: Tampered | null = null;
  private readonly digests = new LocalDigests();
  private readonly rechecks: RecheckTimer;
  private clock: ClockReading | null = null;

  private readonly pool: pg.Pool;
  private ready: Promise<void> | null = null;
  readonly leases: PgSendLeases;

  /** Connects on first use: brings the schema up to date and starts listening for other desks' appends. */
  constructor(private readonly opts: PgStoreOptions) {
    const refused = teamUrlRefusal(opts.url);
    if (refused) throw new GovernanceError(`${refused}.`);
    this.shelf = new OperatorShelf(opts.dir);
    this.identity = new DeskIdentity(join(opts.dir, 'team'), opts.sealer);
    this.now = opts.now ?? Date.now;
    this.pool = teamPool(opts.url, opts.password);
    this.rechecks = new RecheckTimer(opts.recheckMs ?? DEFAULT_RECHECK_MS, () => this.checkRows());
    this.listener = new StoreListener(pgConnection(opts.url, opts.password), {
      // A notice of a newer position is read at once; any other still has every row checked (recheck.ts):
      // an edit of a row already verified names no new position.
      notice: (payload) => (Number(payload) > this.knownSeq ? this.changed() : void this.recheck()),
      changed: () => this.changed(),
    });
    this.leases = new PgSendLeases(
      (text, values) =>
        reach(async () => {
          await this.connect();
          return this.pool.query(text, values);
        }),
      this.deskName(),
      this.leaseMs,
    );
  }

  private get leaseMs(): number {
    return this.opts.leaseMs ?? DEFAULT_LEASE_MS;
  }

  /** This desk as the team's leases and pages name it: a short fingerprint of its key. */
  deskName(): string {
    return deskFingerprint(this.identity.deskKey().public);
  }

  static async open(opts: PgStoreOptions): Promise<PgGovernanceStore> {
    const store = new PgGovernanceStore(opts);
    await store.connect();
    return store;
  }

  /** Ready to read and append; a failed attempt is tried again at the next call. */
  connect(): Promise<void> {
    this.ready ??= (async () => {
      const client = await this.pool.connect();
      try {
        await migrate(client);
      } finally {
        client.release();
      }
      await this.listener.listen();
      await this.readStoreClock();
      if (!this.closed) this.rechecks.start();
    })().catch((e: unknown) => {
      this.ready = null;
      throw e;
    });
    return this.ready;
  }

  /**
   * Whether the store still holds every row this desk verified, unchanged: the database hashes them per
   * window (recheck.ts), and any difference (or a last read that failed) makes the desk read again, which
   * verifies and names the row. The desk's clock is measured against the store's on the way.
   */
  recheck(): Promise<void> {
    return this.rechecks.run();
  }

  private async checkRows(): Promise<void> {
    try {
      if (this.closed) return;
      await this.readStoreClock();
      if (this.failed) return this.changed();
      const v = this.verified;
      if (!(await storeUnchanged((sql) => this.pool.query<WindowDigest>(sql), this.digests, v.rows, v.links))) this.changed();
    } catch {
      // Unreachable: the read it starts finds the store offline and says so.
      this.changed();
    }
  }

  private async readStoreClock(): Promise<ClockReading> {
    this.clock = await readClock(async () => {
      const { rows } = await this.pool.query<{ ms: string }>(STORE_NOW_SQL);
      return Number(rows[0]!.ms);
    }, this.now);
    return this.clock;
  }

  /** The desk's clock against the store's, as last measured (null before the store was reached). */
  clockReading(): ClockReading | null {
    return this.clock;
  }

  /** The row the last read refused as tampering, and the requests it touches; null when the last read verified. */
  tampered(): Tampered | null {
    return this.tamper;
  }

  private changed(): void {
    for (const l of this.listeners) l();
  }

  subscribe(listener: () => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  async read(): Promise<GovernanceRecord[]> {
    const records = await this.fetch();
    if (this.identity.kept().length === 0) return records;
    // A freeze signed here while the store was unreachable goes in before any state is read from the store.
    this.posting ??= postKept(
      this.identity,
      {
        state: () => this.verified.state,
        end: () => this.verified.records.length,
        insert: (body, afterSeq) => this.insert([{ body }], afterSeq),
        refresh: () => this.fetch(),
      },
      this.opts.rules,
      this.now,
    ).finally(() => (this.posting = null));
    await this.posting;
    return this.fetch();
  }

  private posting: Promise<void> | null = null;

  async readState(): Promise<GovernanceState> {
    await this.read();
    // Folded while verifying; a read that overtook this one leaves a newer state, which is as good.
    return structuredClone(this.verified.state);
  }

  async keepFreeze(body: GovernanceBody): Promise<void> {
    if (body.type !== 'freeze') throw new GovernanceError('only a freeze is kept while the team store is offline.');
    this.identity.putKept([...this.identity.kept(), body]);
  }

  keptFreezes(): number {
    return this.identity.kept().length;
  }

  private async rows(): Promise<StoreRow[]> {
    const { rows } = await reach(async () => {
      await this.connect();
      return this.pool.query<StoreRow>('SELECT seq, entry, sig FROM governance_records ORDER BY seq');
    });
    return rows;
  }

  /**
   * Verify, as an operator asks it: every row read again and checked afresh from the pinned founding
   * record on (nothing taken as verified before), and where that stopped. Changes nothing, not even the pin.
   */
  async audit(): Promise<StoreAudit> {
    const rows = await this.rows();
    const seen = { out: noneVerified() };
    let refused: StoreAudit['refused'] = null;
    try {
      verifyRows(rows, this.verifyContext(), { fresh: true, seen });
    } catch (e) {
      if (!(e instanceof TeamTamperError)) throw e;
      refused = { seq: e.seq, reason: e.why };
    }
    return {
      verified: seen.out.records.length,
      rows: rows.length,
      last_link: seen.out.links.at(-1) ?? null,
      founding: this.identity.pin()?.founding ?? this.opts.founding ?? null,
      refused,
    };
  }

  private async fetch(): Promise<GovernanceRecord[]> {
    let v: Verified;
    try {
      v = verifyRows(await this.rows(), this.verifyContext());
    } catch (e) {
      this.failed = true;
      if (e instanceof TeamTamperError) this.tamper = { seq: e.seq, reason: e.why, requests: touchedFrom(this.verified, e.seq) };
      throw e;
    }
    this.failed = false;
    this.tamper = null;
    // Reads may overlap (another desk's notice, this desk's append): an older answer never replaces a newer one.
    if (v.records.length >= this.verified.records.length) this.verified = v;
    this.knownSeq = Math.max(this.knownSeq, v.records.length);
    return [...v.records];
  }

  private verifyContext() {
    return { identity: this.identity, known: this.verified, founding: this.opts.founding, rules: this.opts.rules };
  }

  async append(body: GovernanceBody, afterSeq: number): Promise<GovernanceRecord> {
    if (body.type === 'recovery') throw new GovernanceError(`${NO_RECOVERY}; the team's operators unwedge it by quorum.`);
    return (await this.insert([{ body }], afterSeq))[0]!;
  }

  /** A "dispatched" record and a send lease held by this desk for each of its writes, in one transaction. */
  async handOver(body: GovernanceBody, afterSeq: number, refs: readonly string[]): Promise<GovernanceRecord> {
    if (body.type !== 'dispatched') throw new GovernanceError('only a dispatched record hands a request over to sending.');
    return (await this.insert([{ body }], afterSeq, { refs, request: body.ref, profile: body.profile }))[0]!;
  }

  /**
   * Founds the team from this desk's own records (an empty store only), in one transaction: founding.ts
   * says which rows, vouched for by the desk's first operator.
   */
  async found(records: readonly GovernanceRecord[], key: OperatorKey, passphrase: string): Promise<void> {
    await this.read();
    if (this.verified.records.length > 0)
      throw new GovernanceError('the team store has records already: this desk joins that team; only an empty store is founded.');
    const bodies = foundingRows(records, key, this.opts.rules);
    await this.enrol(key, passphrase);
    await this.insert(bodies, 0);
  }

  /** Signs and inserts records after the `afterSeq`-th, in one transaction; a conflict when the store has moved on. */
  private async insert(
    rows: { body: GovernanceBody; at?: string }[],
    afterSeq: number,
    lease?: { refs: readonly string[]; request: string; profile: string },
  ): Promise<GovernanceRecord[]> {
    await reach(() => this.connect());
    // The time signed into each record is this desk's clock: checked against the store's first (storeClock.ts).
    const skew = skewRefusal(await reach(() => this.readStoreClock()));
    if (skew) throw new GovernanceError(`${skew}.`);
    if (this.verified.records.length !== afterSeq) await this.fetch();
    if (this.verified.records.length !== afterSeq) throw new StoreConflictError();
    const pin = this.identity.pin();
    const cert = pin && this.identity.cert(pin.team);
    if (!pin || !cert)
      throw new Error('This desk is not signed into the team yet: an operator signs here first (their passphrase vouches for the desk).');
    const out = signRows(
      rows,
      {
        seq: afterSeq,
        link: afterSeq === 0 ? genesisLink(pin.team) : this.verified.links[afterSeq - 1]!,
        at: this.verified.records.at(-1)?.at,
      },
      { team: pin.team, cert, privateKey: this.identity.deskKey().private, now: this.now },
    );
    const client = await reach(() => this.pool.connect());
    try {
      await insertRows(
        client,
        out,
        afterSeq,
        lease && ((c) => takeLeases(c, lease.refs, lease.request, lease.profile, this.deskName(), this.leaseMs)),
      );
    } finally {
      client.release();
    }
    this.knownSeq = Math.max(this.knownSeq, afterSeq + out.length);
    for (const { record, text, sig } of out) this.written(record, { entry: text, sig });
    return out.map((x) => x.record);
  }

  /** Its own record counts as verified and seen: cutting it from the store later is noticed here too. */
  private written(r: GovernanceRecord, row: { entry: string; sig: string }): void {
    const v = this.verified;
    if (v.records.length !== r.seq - 1) return;
    // The caller appended a record that does not check (Approvals never does): the next read says so.
    if (!foldOwn(v, r, row, this.deskName(), this.opts.rules)) return void (this.verified = noneVerified());
    const pin = this.identity.pin()!;
    this.identity.putPin({ team: pin.team, founding: pin.founding ?? v.links[0]!, seen: { seq: r.seq, link: r.mac } });
  }

  private readonly deskIndex = new DeskIndex();

  /** The desk at which a request was drafted and each operator signed it, by the records verified. */
  desksOf(ref: string): RequestDesks {
    return this.deskIndex.of(this.verified).get(ref) ?? { drafted: null, signed: new Map() };
  }

  /** The founding record's link this desk pinned, or null before it read or wrote one. */
  founding(): string | null {
    return this.identity.pin()?.founding ?? null;
  }

  writtenHere(seq: number): boolean {
    return this.verified.own.has(seq);
  }

  async enrol(key: OperatorKey, passphrase: string): Promise<void> {
    // Read first: whether the operator who vouched for this desk is still in force is what the records now say.
    await this.read();
    let pin = this.identity.pin();
    if (!pin) {
      // The store is empty and this desk founds the team.
      pin = { team: DeskIdentity.newTeam(), founding: null, seen: { seq: 0, link: '' } };
      this.identity.putPin(pin);
    }
    const held = this.identity.cert(pin.team);
    const voucher = held && this.verified.state.operators.get(held.by);
    if (held && (this.verified.records.length === 0 || activeAt(voucher ?? undefined, this.now()))) return;
    const deskKey = this.identity.deskKey().public;
    const cert = await signAs(key, passphrase, certText(pin.team, deskKey));
    this.identity.putCert(pin.team, { key: deskKey, by: key.id, cert });
  }

  async operatorKey(id: string): Promise<OperatorKey | null> {
    return this.shelf.operatorKey(id);
  }

  async putOperatorKey(key: OperatorKey): Promise<void> {
    this.shelf.putOperatorKey(key);
  }

  async readPolicyFile(profile: string): Promise<string | null> {
    return this.shelf.readPolicyFile(profile);
  }

  async writePolicyFile(profile: string, text: string): Promise<void> {
    this.shelf.writePolicyFile(profile, text);
  }

  async close(): Promise<void> {
    this.closed = true;
    const unlistened = this.listener.close();
    await this.rechecks.stop();
    this.listeners.clear();
    await unlistened;
    await this.pool.end();
  }
}
