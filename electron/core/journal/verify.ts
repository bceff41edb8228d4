import { existsSync, readFileSync } from 'node:fs';
import { basename } from 'node:path';
import type { JournalDamage } from '../errors.ts';
import { RecordBody, type AnyRecord } from './records.ts';
import { headPath, readHead } from './head.ts';
import { entryMac, genesisMac, sameMac } from './mac.ts';

// Reading a journal back is where tampering is caught: every entry's MAC, its place in the chain, and
// the sealed head that says where the chain must end. Anything that fails is reported as damage, with
// the first entry that fails and how many are missing, never as a bare exception.

const MAC_SUFFIX = /,"mac":"([0-9a-f]{64})"\}$/;
const LEGACY_SUFFIX = /,"hash":"([0-9a-f]{64})"\}$/;

// The damage's shape lives with the core's errors (which import nothing of the core); named here too for the journal's readers.
export type { JournalDamage };

export class JournalDamagedError extends Error {
  constructor(
    readonly path: string,
    readonly damage: JournalDamage,
  ) {
    super(`The journal ${basename(path)} failed verification: ${damage.reason}`);
    this.name = 'JournalDamagedError';
  }
}

/** The journal's identity inside its MACs: its file name, which is the profile's id. */
export function journalIdOf(path: string): string {
  return basename(path).replace(/\.jsonl$/, '');
}

export interface Verified {
  records: AnyRecord[];
  /** The MAC the next entry chains to. */
  lastMac: string;
  /** Bytes after the last newline that are not a whole authentic entry: a crash mid-append. */
  torn: { line: number; bytes: number } | null;
  /** The last line was whole and authentic but had lost its newline: it is kept. */
  unterminated: boolean;
  /** Where the sealed head stood (0 for a new journal). */
  headSeq: number;
  /** Whether a sealed head was there at all (a journal made before heads started at entry 0 may have none). */
  headFound: boolean;
}

type Decoded = { ok: true; record: AnyRecord } | { ok: false; why: string };

function decode(key: Buffer, journalId: string, lineNo: number, line: string, prev: string): Decoded {
  const m = MAC_SUFFIX.exec(line);
  if (!m) {
    return LEGACY_SUFFIX.test(line)
      ? {
          ok: false,
          why: 'it was written by an earlier version of the desk that did not authenticate its entries, so nothing in it can be trusted to drive a write',
        }
      : { ok: false, why: 'it carries no MAC; it was edited or damaged' };
  }
  const mac = m[1]!;
  const text = `${line.slice(0, m.index)}}`;
  if (!sameMac(mac, entryMac(key, journalId, text))) {
    return {
      ok: false,
      why: "its MAC does not verify: it was changed after it was written, or it was written under another key (another vault, or another profile's journal)",
    };
  }
  let raw: Record<string, unknown>;
  try {
    raw = JSON.parse(text) as Record<string, unknown>;
  } catch {
    return { ok: false, why: 'it is not valid JSON' };
  }
  const { seq, at, prev: p, ...rest } = raw;
  if (seq !== lineNo) return { ok: false, why: `it is numbered ${String(seq)}: entries were removed, added or moved` };
  if (typeof p !== 'string' || !sameMac(p, prev))
    return { ok: false, why: 'it does not follow the entry before it: entries were removed, reordered or replaced' };
  if (typeof at !== 'string' || Number.isNaN(Date.parse(at))) return { ok: false, why: 'it has no valid time' };
  const body = RecordBody.safeParse(rest);
  if (!body.success) return { ok: false, why: `it is not an entry the desk writes (${body.error.issues[0]?.message})` };
  return { ok: true, record: { ...body.data, seq, at, prev: p, mac } as AnyRecord };
}

/** Verifies the journal at `path` and its head; throws JournalDamagedError naming what failed. */
export function verifyJournal(path: string, key: Buffer): Verified {
  const journalId = journalIdOf(path);
  // The head first: it only moves after its entry is on disk, so a reader racing a writer sees a head
  // no further than the lines it reads next.
  const head = readHead(headPath(path), key, journalId);
  const buf = existsSync(path) ? readFileSync(path) : Buffer.alloc(0);
  const end = buf.lastIndexOf(0x0a) + 1;
  const lines =
    end === 0
      ? []
      : buf
          .subarray(0, end - 1)
          .toString('utf8')
          .split('\n');
  const damaged = (reason: string, entry: number | null, missing = 0): never => {
    throw new JournalDamagedError(path, { reason, entry, missing });
  };

  const records: AnyRecord[] = [];
  let prev = genesisMac(key, journalId);
  lines.forEach((line, i) => {
    const d = decode(key, journalId, i + 1, line, prev);
    if (!d.ok) damaged(`Entry ${i + 1}: ${d.why}.`, i + 1);
    records.push((d as { record: AnyRecord }).record);
    prev = (d as { record: AnyRecord }).record.mac;
  });

  // A last line without its newline: kept when it is a whole authentic entry (only its newline was lost),
  // otherwise a torn append.
  let torn: Verified['torn'] = null;
  let unterminated = false;
  if (end < buf.length) {
    const d = decode(key, journalId, records.length + 1, buf.subarray(end).toString('utf8'), prev);
    if (d.ok) {
      records.push(d.record);
      prev = d.record.mac;
      unterminated = true;
    } else {
      torn = { line: records.length + 1, bytes: buf.length - end };
    }
  }

  if (head.kind === 'bad') damaged(head.why, null);
  const headSeq = head.kind === 'ok' ? head.seq : 0;
  if (head.kind === 'absent' && records.length > 0) {
    damaged(
      `The journal holds ${records.length} entries but its sealed head is missing, so the desk cannot tell whether entries were cut from its end.`,
      null,
    );
  }
  if (headSeq > records.length) {
    const n = headSeq - records.length;
    damaged(
      `It ends at entry ${records.length}, but its sealed head says entry ${headSeq} was written: ${n} ${n === 1 ? 'entry is' : 'entries are'} missing from the end.`,
      records.length + 1,
      n,
    );
  }
  if (head.kind === 'ok' && headSeq > 0 && !sameMac(records[headSeq - 1]!.mac, head.mac)) {
    damaged(`Entry ${headSeq} is not the entry the sealed head names: the journal was replaced by another copy.`, headSeq);
  }
  return { records, lastMac: prev, torn, unterminated, headSeq, headFound: head.kind === 'ok' };
}
