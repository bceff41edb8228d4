import pg from 'pg';
import { join } from 'node:path';
import { RecordBody, isGovernance, type GovernanceBody, type GovernanceRecord } from '../journal/records.ts';
import { signAs, verifySignature, type OperatorKey } from '../operators/keys.ts';
import { activeAt, emptyState, GovernanceError, type GovernanceRules, type GovernanceState } from '../governance/state.ts';
import { applyGovernance } from '../governance/fold.ts';
import { OperatorShelf } from '../approvals/operatorShelf.ts';
import { StoreConflictError, type GovernanceStore, type StoreAudit } from '../approvals/store.ts';
import { DeskIdentity, deskFingerprint, type Pin, type Sealer } from './deskIdentity.ts';
import { certText, Entry, entrySignatureValid, genesisLink, linkOf, signEntry } from './envelope.ts';
import { migrate } from './migrate.ts';
import { pgConnection, teamUrlRefusal } from './url.ts';
import { TeamStoreOfflineError, TeamTamperError } from './errors.ts';
import { DEFAULT_LEASE_MS, PgSendLeases, takeLeases } from './leases.ts';
import { DEFAULT_RECHECK_MS, DIGEST_SQL, LocalDigests, sameDigests, type WindowDigest } from './recheck.ts';
import { readClock, skewRefusal, type ClockReading } from './storeClock.ts';
import { batchSummary, summarize } from '../approvals/summary.ts';
import type { BatchPayload } from '../../../shared/api/batch.ts';
import type { RequestPayload } from '../governance/state.ts';

export { TeamStoreOfflineError, TeamTamperError };

// The governance records of a team on PostgreSQL. The database is a notice board, not a trusted party:
// every read verifies every row from the team's founding record on (envelope.ts: the chain of links,
// each desk's signature and certificate, then the operators' signatures and quorums as governance/fold.ts
// folds them), and a row that does not verify stops the read with a TeamTamperError naming it, so
// nothing it would authorise is sent. Operator keys and policy copies stay on the desk (OperatorShelf):
// the policy in force is what the verified records say, and each desk checks its own copy against them.

export const CHANNEL = 'treasury_desk_governance';

/**
 * A recovery is let in by the vault's credential of the desk that writes it, which no other desk can
 * check: on a team it would let whoever holds one desk's key reset every desk's policy after the
 * cooling-off. A team has none.
 */
const NO_RECOVERY = 'a recovery is not a team record: no other desk can check the credential that let it in';

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

/** The row a read refused, and the requests whose records (as last verified) sit at or after it: none of them can be trusted now. */
export interface Tampered {
  seq: number;
  reason: string;
  requests: { ref: string; summary: string }[];
}

interface Verified {
  records: GovernanceRecord[];
  links: string[];
  /** Each row's entry and signature as verified: a row still byte-for-byte the same needs no second check. */
  rows: { entry: string; sig: string }[];
  /** The seqs of the records this desk's key signed. */
  own: Set<number>;
  /** Each record's desk, as deskFingerprint names it. */
  desks: string[];
  state: GovernanceState;
}

const noneVerified = (): Verified => ({ records: [], links: [], rows: [], own: new Set(), desks: [], state: emptyState() });

export class PgGovernanceStore implements GovernanceStore {
  private readonly shelf: OperatorShelf;
  private readonly identity: DeskIdentity;
  private readonly now: () => number;
  private verified: Verified = noneVerified();
  /** The highest seq this desk knows of (read or written): notifications at or below it are its own or old news. */
  private knownSeq = 0;
  private readonly listeners = new Set<() => void>();
  private listener: pg.Client | null = null;
  private closed = false;
  /** Whether the last read failed (tampered or offline): then every re-check reads again, so a restored store is seen. */
  private failed = false;
  private tamper: Tampered | null = null;
  private readonly digests = new LocalDigests();
  private rechecking: Promise<void> | null = null;
  private recheckTimer: ReturnType<typeof setInterval> | null = null;
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
    this.pool = new pg.Pool({ ...pgConnection(opts.url, opts.password), max: 4 });
    // A connection dropping (the server stopped, the network gone) must not take the desk's process down:
    // an idle client's error and a busy client's alike are reported by the query that meets them.
    this.pool.on('error', () => {});
    this.pool.on('connect', (client) => client.on('error', () => {}));
    this.leases = new PgSendLeases(
      (text, values) =>
        this.reach(async () => {
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
      await this.listen();
      await this.readStoreClock();
      this.startRechecks();
    })().catch((e: unknown) => {
      this.ready = null;
      throw e;
    });
    return this.ready;
  }

  private async listen(): Promise<void> {
    const c = new pg.Client(pgConnection(this.opts.url, this.opts.password));
    c.on('error', () => this.relisten(c));
    c.on('end', () => this.relisten(c));
    c.on('notification', (n) => {
      // A notice of a newer position is read at once; any other still has every row checked (recheck.ts):
      // an edit of a row already verified names no new position.
      if (Number(n.payload) > this.knownSeq) this.changed();
      else void this.recheck();
    });
    await c.connect();
    await c.query(`LISTEN ${CHANNEL}`);
    if (this.closed) {
      await c.end();
      return;
    }
    this.listener = c;
  }

  /** The listening connection was lost: listen again, and say the records may have changed meanwhile. */
  private relisten(c: pg.Client): void {
    if (this.closed || this.listener !== c) return;
    this.listener = null;
    // Without the notices this desk would not hear of a freeze: it reads now, finds the store offline, and holds.
    this.changed();
    // That read may still have reached a server on its way down (its pooled connection not yet ended): the
    // first failed attempt to listen again says so, and the desk reads once more and finds it offline.
    let toldDown = false;
    const retry = (): void => {
      if (this.closed) return;
      this.listen().then(
        () => this.changed(),
        () => {
          if (!toldDown) {
            toldDown = true;
            this.changed();
          }
          setTimeout(retry, 1000);
        },
      );
    };
    setTimeout(retry, 1000);
  }

  /** Re-checks every row every `recheckMs` until closed; the timer keeps no process alive. */
  private startRechecks(): void {
    if (this.recheckTimer || this.closed) return;
    this.recheckTimer = setInterval(() => void this.recheck(), this.opts.recheckMs ?? DEFAULT_RECHECK_MS);
    this.recheckTimer.unref?.();
  }

  /**
   * Whether the store still holds every row this desk verified, unchanged: the database hashes them per
   * window (recheck.ts), and any difference (or a last read that failed) makes the desk read again, which
   * verifies and names the row. The desk's clock is measured against the store's on the way.
   */
  recheck(): Promise<void> {
    this.rechecking ??= (async () => {
      try {
        if (this.closed) return;
        await this.readStoreClock();
        if (this.failed) return this.changed();
        const { rows } = await this.pool.query<WindowDigest>(DIGEST_SQL);
        const v = this.verified;
        if (!sameDigests(rows, this.digests.of(v.rows, v.links))) this.changed();
      } catch {
        // Unreachable: the read it starts finds the store offline and says so.
        this.changed();
      }
    })().finally(() => (this.rechecking = null));
    return this.rechecking;
  }

  private async readStoreClock(): Promise<ClockReading> {
    this.clock = await readClock(async () => {
      const { rows } = await this.pool.query<{ ms: string }>('SELECT (extract(epoch FROM now()) * 1000)::bigint::text AS ms');
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
    this.posting ??= this.postKept().finally(() => (this.posting = null));
    await this.posting;
    return this.fetch();
  }

  private posting: Promise<void> | null = null;

  async readState(): Promise<GovernanceState> {
    await this.read();
    // Folded while verifying; a read that overtook this one leaves a newer state, which is as good.
    return structuredClone(this.verified.state);
  }

  /** Posts the freezes kept while offline, each where the records now end; one no longer needed is dropped. */
  private async postKept(): Promise<void> {
    for (const body of this.identity.kept()) {
      for (let attempt = 1; ; attempt++) {
        try {
          // Frozen already, or its operator no longer in force: there is nothing left for it to do.
          applyGovernance(structuredClone(this.verified.state), body, this.now(), this.opts.rules);
        } catch {
          break;
        }
        try {
          await this.insert([{ body }], this.verified.records.length);
          break;
        } catch (e) {
          if (!(e instanceof StoreConflictError) || attempt >= 5) throw e;
          await this.fetch();
        }
      }
      this.identity.dropKept(body);
    }
  }

  async keepFreeze(body: GovernanceBody): Promise<void> {
    if (body.type !== 'freeze') throw new GovernanceError('only a freeze is kept while the team store is offline.');
    this.identity.putKept([...this.identity.kept(), body]);
  }

  keptFreezes(): number {
    return this.identity.kept().length;
  }

  private async rows(): Promise<{ seq: number; entry: string; sig: string }[]> {
    const { rows } = await this.reach(async () => {
      await this.connect();
      return this.pool.query<{ seq: number; entry: string; sig: string }>('SELECT seq, entry, sig FROM governance_records ORDER BY seq');
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
      this.verify(rows, { fresh: true, seen });
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
      v = this.verify(await this.rows());
    } catch (e) {
      this.failed = true;
      if (e instanceof TeamTamperError) this.tamper = { seq: e.seq, reason: e.why, requests: this.touchedFrom(e.seq) };
      throw e;
    }
    this.failed = false;
    this.tamper = null;
    // Reads may overlap (another desk's notice, this desk's append): an older answer never replaces a newer one.
    if (v.records.length >= this.verified.records.length) this.verified = v;
    this.knownSeq = Math.max(this.knownSeq, v.records.length);
    return [...v.records];
  }

  /** The requests with a record at or after `seq`, as this desk last verified them: the refused row's own, and every one after it. */
  private touchedFrom(seq: number): Tampered['requests'] {
    const s = this.verified.state;
    const refs = new Set<string>();
    for (const r of this.verified.records.slice(seq - 1)) if ('ref' in r && s.proposals.has(r.ref)) refs.add(r.ref);
    return [...refs].map((ref) => {
      const p = s.proposals.get(ref)!;
      const summary =
        p.what === 'batch'
          ? batchSummary(JSON.parse(p.payload) as BatchPayload)
          : summarize(p, p.what === 'request' ? (JSON.parse(p.payload) as RequestPayload) : null);
      return { ref, summary };
    });
  }

  /** Runs `fn` against the database; a failure to reach it or an error it answers is the store being offline. */
  private async reach<T>(fn: () => Promise<T>): Promise<T> {
    try {
      return await fn();
    } catch (e) {
      throw new TeamStoreOfflineError((e as Error).message || String(e));
    }
  }

  /**
   * Checks every row from the founding record on; throws TeamTamperError at the first that does not verify.
   * `fresh`: checks every row again (none taken from the last read) and keeps no pin; `seen.out` holds what
   * verified so far when it throws.
   */
  private verify(rows: { seq: number; entry: string; sig: string }[], how: { fresh?: boolean; seen?: { out: Verified } } = {}): Verified {
    const pin = this.identity.pin();
    let out = noneVerified();
    if (how.seen) how.seen.out = out;
    if (rows.length === 0) {
      if (pin?.founding) throw new TeamTamperError(1, `the store is empty, but this desk joined team ${pin.team}`);
      return out;
    }
    // A pin without a founding record is a desk that meant to found the team: the store's founder counts.
    let team = pin?.founding ? pin.team : null;
    let prev = team ? genesisLink(team) : null;
    let lastAt = Number.NEGATIVE_INFINITY;
    // What this desk verified before, unchanged to the byte, is taken as verified; only the rows after it are checked.
    const known = this.verified;
    const n = known.rows.length;
    if (
      !how.fresh &&
      team &&
      n > 0 &&
      rows.length >= n &&
      known.rows.every((k, i) => rows[i]!.seq === i + 1 && rows[i]!.entry === k.entry && rows[i]!.sig === k.sig)
    ) {
      // Nothing new: nothing is folded, so the state is shared; anything new is folded into a copy.
      out =
        rows.length === n
          ? known
          : {
              records: [...known.records],
              links: [...known.links],
              rows: [...known.rows],
              own: new Set(known.own),
              desks: [...known.desks],
              state: structuredClone(known.state),
            };
      prev = known.links[n - 1]!;
      lastAt = Date.parse(known.records[n - 1]!.at);
      if (how.seen) how.seen.out = out;
    }
    for (const [i, row] of rows.entries()) {
      if (i < out.rows.length) continue;
      const seq = i + 1;
      if (row.seq !== seq) throw new TeamTamperError(seq, `it is missing (the store goes on at ${row.seq})`);
      let entry: Entry;
      try {
        entry = Entry.parse(JSON.parse(row.entry));
      } catch {
        throw new TeamTamperError(seq, 'it is not a team record');
      }
      if (entry.seq !== seq) throw new TeamTamperError(seq, `it was written as record ${entry.seq}`);
      team ??= entry.team;
      prev ??= genesisLink(team);
      if (entry.team !== team) throw new TeamTamperError(seq, `it belongs to team ${entry.team}, not ${team}`);
      if (entry.prev !== prev) throw new TeamTamperError(seq, 'it does not follow the record before it (one was removed, moved or edited)');
      if (!entrySignatureValid(entry.desk.key, row.entry, row.sig)) throw new TeamTamperError(seq, "its desk's signature does not verify");
      const at = Date.parse(entry.at);
      if (at < lastAt) throw new TeamTamperError(seq, 'it is dated before the record it follows');
      const parsed = RecordBody.safeParse(entry.body);
      if (!parsed.success || !isGovernance(parsed.data)) throw new TeamTamperError(seq, 'its body is not a governance record');
      const body = parsed.data;
      if (body.type === 'recovery') throw new TeamTamperError(seq, NO_RECOVERY);
      const link = linkOf(row.entry);
      if (seq === 1) {
        if (body.type !== 'operator_created') throw new TeamTamperError(seq, 'the founding record does not create the first operator');
        const pinned = pin?.founding ?? this.opts.founding ?? null;
        if (pinned !== null && pinned !== link) throw new TeamTamperError(seq, 'it is not the founding record this desk joined');
      }
      const vouch =
        seq === 1 && body.type === 'operator_created'
          ? body.ref === entry.desk.by
            ? body.public_key
            : null
          : activeAt(out.state.operators.get(entry.desk.by), at)
            ? out.state.operators.get(entry.desk.by)!.public_key
            : null;
      if (vouch === null || !verifySignature(vouch, certText(team, entry.desk.key), entry.desk.cert))
        throw new TeamTamperError(seq, 'its desk was not vouched for by an operator in force');
      try {
        applyGovernance(out.state, body, at, this.opts.rules);
      } catch (e) {
        throw new TeamTamperError(seq, `${body.type} does not check: ${(e as Error).message}`);
      }
      out.records.push({ ...body, seq, at: entry.at, prev: entry.prev, mac: link });
      out.links.push(link);
      out.rows.push({ entry: row.entry, sig: row.sig });
      out.desks.push(deskFingerprint(entry.desk.key));
      if (entry.desk.key === this.identity.deskKey().public) out.own.add(seq);
      prev = link;
      lastAt = at;
    }
    // Records cut from the end leave a chain that verifies: what this desk saw before must still be there.
    if (pin && pin.seen.seq > 0) {
      if (rows.length < pin.seen.seq) throw new TeamTamperError(pin.seen.seq, `it was removed (the store now ends at ${rows.length})`);
      if (out.links[pin.seen.seq - 1] !== pin.seen.link)
        throw new TeamTamperError(pin.seen.seq, 'it differs from the one this desk verified');
    }
    const next: Pin = { team: team!, founding: out.links[0]!, seen: { seq: out.records.length, link: out.links.at(-1)! } };
    if (!how.fresh && (!pin || pin.founding !== next.founding || next.seen.seq > pin.seen.seq)) this.identity.putPin(next);
    return out;
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
   * Founds the team from this desk's own records (an empty store only): copied in order, with the times
   * they were written, in one transaction, this desk vouched for by its first operator, who must be in
   * force at every record (each row's desk is checked against the operators of its moment).
   */
  async found(records: readonly GovernanceRecord[], key: OperatorKey, passphrase: string): Promise<void> {
    await this.read();
    if (this.verified.records.length > 0)
      throw new GovernanceError('the team store has records already: this desk joins that team; only an empty store is founded.');
    const first = records[0];
    if (!first || first.type !== 'operator_created' || first.ref !== key.id)
      throw new GovernanceError(
        `a team is founded by the desk's first operator${first?.type === 'operator_created' ? `, ${first.name}` : ''}: their passphrase vouches for this desk.`,
      );
    const s = emptyState();
    const bodies: { body: GovernanceBody; at: string }[] = [];
    for (const r of records) {
      const { seq, at, prev: _prev, mac: _mac, ...body } = r;
      if (body.type === 'recovery') throw new GovernanceError(`record ${seq} is a recovery, and ${NO_RECOVERY}.`);
      if (seq > 1 && !activeAt(s.operators.get(key.id), Date.parse(at)))
        throw new GovernanceError(
          `${key.name} is not an operator in force at record ${seq}, so they cannot vouch for this desk's copy of it.`,
        );
      applyGovernance(s, body as GovernanceBody, Date.parse(at), this.opts.rules);
      bodies.push({ body: body as GovernanceBody, at });
    }
    await this.enrol(key, passphrase);
    await this.insert(bodies, 0);
  }

  /** Signs and inserts records after the `afterSeq`-th, in one transaction; a conflict when the store has moved on. */
  private async insert(
    rows: { body: GovernanceBody; at?: string }[],
    afterSeq: number,
    lease?: { refs: readonly string[]; request: string; profile: string },
  ): Promise<GovernanceRecord[]> {
    await this.reach(() => this.connect());
    // The time signed into each record is this desk's clock: checked against the store's first (storeClock.ts).
    const skew = skewRefusal(await this.reach(() => this.readStoreClock()));
    if (skew) throw new GovernanceError(`${skew}.`);
    if (this.verified.records.length !== afterSeq) await this.fetch();
    if (this.verified.records.length !== afterSeq) throw new StoreConflictError();
    const pin = this.identity.pin();
    const cert = pin && this.identity.cert(pin.team);
    if (!pin || !cert)
      throw new Error('This desk is not signed into the team yet: an operator signs here first (their passphrase vouches for the desk).');
    const out: { record: GovernanceRecord; text: string; sig: string }[] = [];
    let lastAt = this.verified.records.at(-1)?.at;
    let prev = afterSeq === 0 ? genesisLink(pin.team) : this.verified.links[afterSeq - 1]!;
    for (const [i, { body, at: given }] of rows.entries()) {
      const seq = afterSeq + 1 + i;
      const at = new Date(Math.max(given ? Date.parse(given) : this.now(), lastAt ? Date.parse(lastAt) : 0)).toISOString();
      const entry: Entry = { v: 1, team: pin.team, seq, at, prev, body, desk: cert };
      const text = JSON.stringify(entry);
      const record = { ...body, seq, at, prev, mac: linkOf(text) } as GovernanceRecord;
      out.push({ record, text, sig: signEntry(this.identity.deskKey().private, text) });
      prev = record.mac;
      lastAt = at;
    }
    const client = await this.reach(() => this.pool.connect());
    try {
      await client.query('BEGIN');
      for (const [i, { record, text, sig }] of out.entries()) {
        // Positioned: the row goes in only where the desk saw the end; the primary key settles a race.
        const r = await client.query(
          'INSERT INTO governance_records (seq, entry, sig) SELECT $1, $2, $3 WHERE (SELECT coalesce(max(seq), 0) FROM governance_records) = $4',
          [record.seq, text, sig, afterSeq + i],
        );
        if (r.rowCount !== 1) throw new StoreConflictError();
      }
      if (lease) await takeLeases(client, lease.refs, lease.request, lease.profile, this.deskName(), this.leaseMs);
      await client.query('SELECT pg_notify($1, $2)', [CHANNEL, String(afterSeq + out.length)]);
      await client.query('COMMIT');
    } catch (e) {
      await client.query('ROLLBACK').catch(() => {});
      if ((e as { code?: string }).code === '23505') throw new StoreConflictError();
      throw e;
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
    try {
      applyGovernance(v.state, r, Date.parse(r.at), this.opts.rules);
    } catch {
      // The caller appended a record that does not check (Approvals never does): the next read says so.
      this.verified = noneVerified();
      return;
    }
    v.records.push(r);
    v.links.push(r.mac);
    v.rows.push(row);
    v.own.add(r.seq);
    v.desks.push(this.deskName());
    const pin = this.identity.pin()!;
    this.identity.putPin({ team: pin.team, founding: pin.founding ?? v.links[0]!, seen: { seq: r.seq, link: r.mac } });
  }

  private deskIndex: { of: Verified; length: number; refs: Map<string, { drafted: string | null; signed: Map<string, string> }> } | null =
    null;

  /** The desk at which a request was drafted and each operator signed it, by the records verified. */
  desksOf(ref: string): { drafted: string | null; signed: Map<string, string> } {
    const v = this.verified;
    // Indexed once per state of the records: a page of many requests asks for each.
    if (this.deskIndex?.of !== v || this.deskIndex.length !== v.records.length) {
      const refs = new Map<string, { drafted: string | null; signed: Map<string, string> }>();
      const at = (r: string) => refs.get(r) ?? refs.set(r, { drafted: null, signed: new Map() }).get(r)!;
      v.records.forEach((r, i) => {
        if (r.type === 'proposal') at(r.ref).drafted = v.desks[i]!;
        if (r.type === 'signoff') at(r.ref).signed.set(r.signed.operator, v.desks[i]!);
      });
      this.deskIndex = { of: v, length: v.records.length, refs };
    }
    return this.deskIndex.refs.get(ref) ?? { drafted: null, signed: new Map() };
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
    if (this.recheckTimer) clearInterval(this.recheckTimer);
    await this.rechecking;
    this.listeners.clear();
    const l = this.listener;
    this.listener = null;
    await l?.end().catch(() => {});
    await this.pool.end();
  }
}
