import { createHash } from 'node:crypto';
import {
  closeSync, existsSync, fsyncSync, ftruncateSync, openSync, readFileSync, readSync, unlinkSync, writeFileSync, writeSync,
} from 'node:fs';
import { dirname } from 'node:path';
import { applyRecord, isFinished, type IntentView } from './intents.ts';
import { RecordBody, type IntentKind, type JournalRecord } from './records.ts';

// The journal is the desk's memory of every write it decided on. Each line is one JSON record carrying
// the SHA-256 of the record before it and its own, so an edited, removed or reordered line is found on
// open. Appends are synchronous and fsync'd: when append() returns, the record survives a crash, which
// is what lets "journal, then send" promise that no request left without a trace.

export const GENESIS = '0'.repeat(64);
const HASH_SUFFIX = /,"hash":"([0-9a-f]{64})"\}$/;

export class JournalError extends Error {
  constructor(message: string, readonly line?: number) {
    super(message);
    this.name = 'JournalError';
  }
}

/** A last line cut short by a crash mid-write; its bytes are kept beside the journal, never replayed. */
export interface TornTail {
  line: number;
  bytes: number;
  savedTo: string;
}

export interface JournalOptions {
  now?: () => number;
}

function sha256(s: string): string {
  return createHash('sha256').update(s, 'utf8').digest('hex');
}

/** Serialises a record: the hash covers the exact text of the line without its hash field. */
function encodeLine(seq: number, at: string, prev: string, body: RecordBody): { line: string; hash: string } {
  const text = JSON.stringify({ seq, at, prev, ...body });
  const hash = sha256(text);
  return { line: `${text.slice(0, -1)},"hash":"${hash}"}`, hash };
}

/** Checks one line against the chain; returns the record or throws naming the line. */
function decodeLine(path: string, lineNo: number, line: string, prevHash: string): JournalRecord {
  const where = `journal ${path}, line ${lineNo}`;
  const m = HASH_SUFFIX.exec(line);
  if (!m) throw new JournalError(`${where}: the line has no hash; the journal was edited or damaged.`, lineNo);
  const hash = m[1]!;
  const text = `${line.slice(0, m.index)}}`;
  if (sha256(text) !== hash) {
    throw new JournalError(`${where}: the line does not match its own hash; it was edited or damaged after it was written.`, lineNo);
  }
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch {
    throw new JournalError(`${where}: the line is not valid JSON.`, lineNo);
  }
  const { seq, at, prev, ...rest } = raw as { seq?: unknown; at?: unknown; prev?: unknown };
  if (seq !== lineNo) throw new JournalError(`${where}: the record is numbered ${String(seq)}; a line was removed, added or moved.`, lineNo);
  if (prev !== prevHash) {
    throw new JournalError(`${where}: the chain is broken (its "prev" is not the hash of line ${lineNo - 1}); a line before it was edited, removed or reordered.`, lineNo);
  }
  if (typeof at !== 'string' || Number.isNaN(Date.parse(at))) throw new JournalError(`${where}: the record has no valid time.`, lineNo);
  const body = RecordBody.safeParse(rest);
  if (!body.success) throw new JournalError(`${where}: the record is not one the desk writes (${body.error.issues[0]?.message}).`, lineNo);
  return { ...body.data, seq, at, prev, hash } as JournalRecord;
}

/** Reads and verifies a journal without opening it for writing (a torn last line is reported, not cut). */
export function readJournal(path: string): { records: JournalRecord[]; torn: { line: number; bytes: number } | null } {
  const buf = existsSync(path) ? readFileSync(path) : Buffer.alloc(0);
  const end = buf.lastIndexOf(0x0a) + 1;
  const lines = end === 0 ? [] : buf.subarray(0, end - 1).toString('utf8').split('\n');
  const records: JournalRecord[] = [];
  let prev = GENESIS;
  lines.forEach((line, i) => {
    const r = decodeLine(path, i + 1, line, prev);
    records.push(r);
    prev = r.hash;
  });
  return { records, torn: end < buf.length ? { line: lines.length + 1, bytes: buf.length - end } : null };
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
  private seq: number;
  private head: string;
  private readonly views = new Map<string, IntentView>();
  private readonly now: () => number;
  private readonly lockPath: string;
  private failed: JournalError | null = null;
  /** Set when open() found and cut a torn last line. */
  readonly recovered: TornTail | null;

  private constructor(readonly path: string, opts: JournalOptions) {
    this.now = opts.now ?? Date.now;
    this.lockPath = `${path}.lock`;
    takeLock(this.lockPath);
    let fd: number | undefined;
    try {
      const { records, torn } = readJournal(path);
      for (const r of records) {
        try {
          applyRecord(this.views, r);
        } catch (e) {
          throw new JournalError(`journal ${path}, line ${r.seq}: ${(e as Error).message}.`, r.seq);
        }
      }
      this.seq = records.length;
      this.head = records.at(-1)?.hash ?? GENESIS;
      const isNew = !existsSync(path);
      this.fd = fd = openSync(path, 'a+', 0o600);
      this.recovered = torn ? this.cutTornTail(torn) : null;
      if (isNew) fsyncDir(dirname(path));
    } catch (e) {
      if (fd !== undefined) closeSync(fd);
      releaseLock(this.lockPath);
      throw e;
    }
  }

  static open(path: string, opts: JournalOptions = {}): Journal {
    return new Journal(path, opts);
  }

  // A crash mid-append leaves a line without its newline. That record's append() never returned, so
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

  /** Appends one record and returns once it is on disk. */
  append(body: RecordBody): JournalRecord {
    const parsed = RecordBody.parse(body);
    const seq = this.seq + 1;
    const at = new Date(this.now()).toISOString();
    const { line, hash } = encodeLine(seq, at, this.head, parsed);
    const record = { ...parsed, seq, at, prev: this.head, hash } as JournalRecord;
    // Fold first, on a copy: a record the state machine rejects never reaches the file.
    const scratch = new Map<string, IntentView>();
    const current = this.views.get(record.intent);
    if (record.type !== 'intent') {
      if (!current) throw new JournalError(`a ${record.type} record names intent ${record.intent}, which was never journaled`);
      scratch.set(record.intent, { ...current });
    } else if (current) {
      throw new JournalError(`intent ${record.intent} is journaled already`);
    }
    applyRecord(scratch, record);
    if (this.failed) throw this.failed;
    try {
      writeSync(this.fd, `${line}\n`);
      fsyncSync(this.fd);
    } catch (e) {
      // Part of the line may be on disk: appending more would bury a torn line mid-file. Stop writing;
      // the next open cuts the torn tail and carries on from the last whole record.
      this.failed = new JournalError(`the journal could not be written (${(e as Error).message}); restart the desk before sending anything.`);
      throw this.failed;
    }
    this.seq = seq;
    this.head = hash;
    this.views.set(record.intent, scratch.get(record.intent)!);
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

  get length(): number {
    return this.seq;
  }

  close(): void {
    closeSync(this.fd);
    releaseLock(this.lockPath);
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
