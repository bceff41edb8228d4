import {
  closeSync,
  existsSync,
  fdatasyncSync,
  fsyncSync,
  ftruncateSync,
  openSync,
  readFileSync,
  readSync,
  unlinkSync,
  writeFileSync,
  writeSync,
} from 'node:fs';
import { dirname } from 'node:path';
import { applyRecord, isFinished, type IntentView } from './intents.ts';
import { anchorDamage, anchorPathFor, AnchorWriter, missingHeadDamage, readAnchor, setAnchorAside } from './anchor.ts';
import { HeadWriter, headPath } from './head.ts';
import { entryMac, type JournalKey } from './mac.ts';
import { journalNameOf, type JournalRegistry } from './registry.ts';
import {
  isGovernance,
  isIssued,
  RecordBody,
  type AnyRecord,
  type GovernanceRecord,
  type IntentKind,
  type IssuedRecord,
} from './records.ts';
import { JournalDamagedError, journalIdOf, verifyJournal, type Verified } from './verify.ts';

// The journal is the desk's memory of every write it decided on. Each line is one JSON entry carrying
// the MAC of the entry before it and its own (HMAC under a key the vault protects), and a sealed head
// records where the chain ends, so a forged, edited, reordered or shortened journal is found on open
// and never drives a write. Appends are synchronous and fsync'd: when append() returns, the entry
// survives a crash, which is what lets "journal, then send" promise that no request left without a trace.

export { JournalDamagedError, type JournalDamage } from './verify.ts';

export class JournalError extends Error {
  constructor(
    message: string,
    readonly line?: number,
  ) {
    super(message);
    this.name = 'JournalError';
  }
}

/** A last line cut short by a crash mid-append; its bytes are kept beside the journal, never replayed. */
export interface TornTail {
  line: number;
  bytes: number;
  savedTo: string;
}

/** Points inside append(), for the crash tests that kill the process at each of them. */
export type AppendStep = 'line-written' | 'line-synced' | 'head-written';

export interface JournalOptions {
  /** The MAC key; called at open and at every append (it throws while the vault is locked). */
  key: JournalKey;
  /** Where the desk records that this journal exists (the vault's file, for the vault's journals): once registered, a missing head is damage, not a new journal. */
  registry?: JournalRegistry;
  /** The host's state directory OUTSIDE the data folder, where the journal's anchor moves with its head (journal/anchor.ts). */
  anchorDir?: string;
  /** The operator archived the damaged journal this one replaces (journal/archive.ts): its old anchor is set aside. */
  restart?: boolean;
  now?: () => number;
  onAppendStep?: (step: AppendStep) => void;
}

/** Reads and verifies a journal without opening it for writing (a torn last line is reported, not cut). */
export function readJournal(path: string, key: JournalKey): Verified {
  return verifyJournal(path, key());
}

function processAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === 'EPERM';
  }
}

const openInThisProcess = new Set<string>();

/** One writer per journal: two desks appending to one file would each believe their own chain. */
function takeLock(lockPath: string): void {
  if (openInThisProcess.has(lockPath)) throw new JournalError('the journal is open already in this process.');
  for (let tries = 0; tries < 2; tries++) {
    try {
      const fd = openSync(lockPath, 'wx', 0o600);
      writeSync(fd, String(process.pid));
      fsyncSync(fd);
      closeSync(fd);
      openInThisProcess.add(lockPath);
      return;
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== 'EEXIST') throw e;
      const holder = Number.parseInt(readFileSync(lockPath, 'utf8'), 10);
      if (Number.isInteger(holder) && holder !== process.pid && processAlive(holder)) {
        throw new JournalError(`the journal is in use by another process (pid ${holder}); close the other desk first.`);
      }
      // The holder is gone (it crashed): the lock is stale.
      unlinkSync(lockPath);
    }
  }
  throw new JournalError(`could not lock the journal (${lockPath}).`);
}

function releaseLock(lockPath: string): void {
  openInThisProcess.delete(lockPath);
  if (existsSync(lockPath)) unlinkSync(lockPath);
}

export class Journal {
  private fd: number;
  private readonly headFile: HeadWriter;
  private readonly anchor: AnchorWriter | null = null;
  private seq: number;
  /** The entry of the last freeze record (0: none), carried in the anchor. */
  private lastFreeze = 0;
  private lastMac: string;
  private readonly views = new Map<string, IntentView>();
  /** Governance records in order (only the desk's governance journal holds any). */
  private readonly gov: GovernanceRecord[] = [];
  private readonly issuedList: IssuedRecord[] = [];
  /** Intents approved by this process: any other approved intent came from an earlier run (or a restored copy). */
  private readonly approvedHere = new Set<string>();
  private readonly key: JournalKey;
  private readonly id: string;
  private readonly now: () => number;
  private readonly step: (s: AppendStep) => void;
  private readonly lockPath: string;
  private failed: JournalError | null = null;
  /** When this process opened the journal: approvals older than this belong to an earlier run (or a restored copy). */
  readonly openedAt: number;
  /** Set when open() found and cut a torn last line; the operator is told until they acknowledge it. */
  recovered: TornTail | null;

  private constructor(
    readonly path: string,
    opts: JournalOptions,
  ) {
    this.key = opts.key;
    this.id = journalIdOf(path);
    this.now = opts.now ?? Date.now;
    this.openedAt = this.now();
    this.step = opts.onAppendStep ?? (() => {});
    this.lockPath = `${path}.lock`;
    takeLock(this.lockPath);
    let fd: number | undefined;
    let head: HeadWriter | undefined;
    let anchor: AnchorWriter | undefined;
    try {
      const key = this.key();
      const v = verifyJournal(path, key);
      const name = journalNameOf(path);
      const registered = registeredAs(path, name, opts.registry);
      if (registered && !v.headFound && !opts.restart) throw new JournalDamagedError(path, missingHeadDamage(path, v));
      const anchorAt = opts.anchorDir ? anchorPathFor(opts.anchorDir, path) : null;
      if (anchorAt && opts.restart) setAnchorAside(anchorAt, String(this.now()));
      if (anchorAt && !opts.restart) {
        const d = anchorDamage(readAnchor(anchorAt, key, this.id), v.records, registered, anchorAt);
        if (d) throw new JournalDamagedError(path, d);
      }
      for (const r of v.records) {
        try {
          applyRecord(this.views, r);
          if (isGovernance(r)) this.gov.push(r as GovernanceRecord);
          if (isIssued(r)) this.issuedList.push(r as IssuedRecord);
          if (r.type === 'freeze') this.lastFreeze = r.seq;
        } catch (e) {
          throw new JournalDamagedError(path, {
            reason: `entry ${r.seq} does not fit the entries before it (${(e as Error).message}).`,
            entry: r.seq,
            missing: 0,
          });
        }
      }
      this.seq = v.records.length;
      this.lastMac = v.lastMac;
      const isNew = !existsSync(path);
      this.fd = fd = openSync(path, 'a+', 0o600);
      this.recovered = v.torn ? this.cutTornTail(v.torn) : null;
      if (v.unterminated) {
        writeSync(this.fd, '\n');
        fsyncSync(this.fd);
      }
      const headIsNew = !existsSync(headPath(path));
      this.headFile = head = new HeadWriter(headPath(path));
      if (isNew || headIsNew) fsyncDir(dirname(path));
      // Entries after the head are whole and authentic: a crash came between an entry and its head. A
      // journal without a head gets one at entry 0, so that its head can never be absent again unnoticed.
      if (v.headSeq < this.seq || !v.headFound) this.headFile.write(key, this.id, { seq: this.seq, mac: this.lastMac });
      if (anchorAt) {
        this.anchor = anchor = new AnchorWriter(anchorAt, opts.anchorDir!);
        this.anchor.write(key, this.id, { seq: this.seq, mac: this.lastMac, freeze: this.lastFreeze });
      }
      // Registered last: a journal is on the register only once its head (and anchor) exist.
      if (opts.registry && !registered) opts.registry.add(name);
    } catch (e) {
      anchor?.close();
      head?.close();
      if (fd !== undefined) closeSync(fd);
      releaseLock(this.lockPath);
      throw e;
    }
  }

  /** Opens and verifies a journal; throws JournalDamagedError when it fails verification. */
  static open(path: string, opts: JournalOptions): Journal {
    return new Journal(path, opts);
  }

  // A crash mid-append leaves a line without its newline. That entry's append() never returned, so
  // no request was sent on its strength; keep its bytes for the record and continue from the line before.
  private cutTornTail(torn: { line: number; bytes: number }): TornTail {
    const size = readFileSync(this.path).length;
    const keep = size - torn.bytes;
    const tail = Buffer.alloc(torn.bytes);
    readSync(this.fd, tail, 0, torn.bytes, keep);
    const savedTo = `${this.path}.torn-${this.now()}`;
    writeFileSync(savedTo, tail, { mode: 0o600 });
    ftruncateSync(this.fd, keep);
    fsyncSync(this.fd);
    return { line: torn.line, bytes: torn.bytes, savedTo };
  }

  /** Appends one entry and returns once it and the head are on disk. */
  append(body: RecordBody): AnyRecord {
    const parsed = RecordBody.parse(body);
    if (this.failed) throw this.failed;
    const key = this.key();
    const seq = this.seq + 1;
    const at = new Date(this.now()).toISOString();
    const text = JSON.stringify({ seq, at, prev: this.lastMac, ...parsed });
    const mac = entryMac(key, this.id, text);
    const record = { ...parsed, seq, at, prev: this.lastMac, mac } as AnyRecord;
    // Fold first, on a copy: an entry the state machine rejects never reaches the file.
    const scratch = new Map<string, IntentView>();
    const current = isGovernance(record) || isIssued(record) ? undefined : this.views.get(record.intent);
    if (isGovernance(record) || isIssued(record)) {
      // Governance: checked by the governance fold before it is appended (governance/fold.ts).
    } else if (record.type !== 'intent') {
      if (!current) throw new JournalError(`a ${record.type} record names intent ${record.intent}, which was never journaled`);
      scratch.set(record.intent, { ...current });
    } else if (current) {
      throw new JournalError(`intent ${record.intent} is journaled already`);
    }
    if (!isGovernance(record) && !isIssued(record)) applyRecord(scratch, record);
    try {
      writeSync(this.fd, `${text.slice(0, -1)},"mac":"${mac}"}\n`);
      this.step('line-written');
      fdatasyncSync(this.fd);
      this.step('line-synced');
      this.headFile.write(key, this.id, { seq, mac });
      this.step('head-written');
      this.anchor?.write(key, this.id, { seq, mac, freeze: record.type === 'freeze' ? seq : this.lastFreeze });
    } catch (e) {
      // Part of the line may be on disk: appending more would bury a torn line mid-file. Stop writing;
      // the next open cuts the torn tail (or keeps the whole entry) and carries on from there.
      this.failed = new JournalError(
        `the journal could not be written (${(e as Error).message}); restart the desk before sending anything.`,
      );
      throw this.failed;
    }
    this.seq = seq;
    this.lastMac = mac;
    if (record.type === 'freeze') this.lastFreeze = seq;
    if (isGovernance(record)) {
      this.gov.push(record as GovernanceRecord);
      return record;
    }
    if (isIssued(record)) {
      this.issuedList.push(record as IssuedRecord);
      return record;
    }
    this.views.set(record.intent, scratch.get(record.intent)!);
    if (record.type === 'approval') this.approvedHere.add(record.intent);
    return record;
  }

  intent(id: string): IntentView | undefined {
    const v = this.views.get(id);
    return v && { ...v };
  }

  intents(): IntentView[] {
    return [...this.views.values()].map((v) => ({ ...v }));
  }

  /** Intents not finished (still to send, in flight, unconfirmed, watched, or waiting for an operator). */
  unfinished(kind?: IntentKind): IntentView[] {
    return this.intents().filter((v) => !isFinished(v) && (kind === undefined || v.kind === kind));
  }

  /** True when this process recorded the intent's approval; false for one approved in an earlier run. */
  approvedInThisRun(id: string): boolean {
    return this.approvedHere.has(id);
  }

  governance(): GovernanceRecord[] {
    return [...this.gov];
  }

  /** The statements this journal recorded as issued, oldest first. */
  issued(): IssuedRecord[] {
    return [...this.issuedList];
  }

  get length(): number {
    return this.seq;
  }

  close(): void {
    closeSync(this.fd);
    this.headFile.close();
    this.anchor?.close();
    releaseLock(this.lockPath);
  }
}

/** Whether the register holds the journal; a register that does not verify is damage, never "not registered". */
function registeredAs(path: string, name: string, registry: JournalRegistry | undefined): boolean {
  if (!registry) return false;
  try {
    return registry.has(name);
  } catch (e) {
    throw new JournalDamagedError(path, {
      reason: `The desk cannot tell whether this journal existed before: ${(e as Error).message}`,
      entry: null,
      missing: 0,
    });
  }
}

function fsyncDir(dir: string): void {
  try {
    const fd = openSync(dir, 'r');
    try {
      fsyncSync(fd);
    } finally {
      closeSync(fd);
    }
  } catch {
    // Some platforms (Windows) cannot open a directory; the file's own fsync is what matters there.
  }
}
