import { existsSync, mkdirSync, renameSync } from 'node:fs';
import { join } from 'node:path';
import { z } from 'zod';
import { anchorTag, sameMac } from './mac.ts';
import type { AnyRecord } from './records.ts';
import { journalNameOf } from './registry.ts';
import { readSlots, SlotWriter } from './slots.ts';
import type { JournalDamage, Verified } from './verify.ts';

// A restore of the whole data folder brings back an older vault, older journals and older heads that
// all agree with each other. The anchor is the one record a folder restore does not roll back: where
// each journal stood (entry number, its MAC, its last freeze), kept in a state directory the host picks
// OUTSIDE the data folder and moved with every head (two slots and one fdatasync, as the head). A
// journal that ends before its anchor went back in time: damaged, nothing sent. It cannot help against
// a restore that takes the state directory back too (a whole-disk image), nor against whoever can both
// write it and compute the tag (the Sandbox profile's key file is readable by design).

const Slot = z.strictObject({
  format: z.literal('td-anchor'),
  version: z.literal(1),
  seq: z.number().int().min(0),
  mac: z.string().regex(/^[0-9a-f]{64}$/),
  /** The entry of the journal's last freeze record (0: none). */
  freeze: z.number().int().min(0),
  tag: z.string().regex(/^[0-9a-f]{64}$/),
});

export interface Anchor {
  seq: number;
  mac: string;
  freeze: number;
}

export type AnchorRead = { kind: 'absent' } | { kind: 'bad'; why: string } | ({ kind: 'ok' } & Anchor);

export function anchorPathFor(dir: string, journalPath: string): string {
  return join(dir, `${journalNameOf(journalPath).replace('/', '-')}.anchor`);
}

export function readAnchor(path: string, key: Buffer, journalId: string): AnchorRead {
  const slots = readSlots(path);
  if (slots === null || (slots !== 'bad' && slots.every((s) => s === ''))) return { kind: 'absent' };
  const valid = (slots === 'bad' ? [] : slots)
    .map((s) => {
      try {
        const p = Slot.safeParse(JSON.parse(s));
        return p.success ? p.data : null;
      } catch {
        return null;
      }
    })
    .filter((s) => s !== null && sameMac(s.tag, anchorTag(key, journalId, s.seq, s.mac, s.freeze)));
  if (valid.length === 0) return { kind: 'bad', why: 'it does not verify with the journal key' };
  const best = valid.reduce((a, b) => (b!.seq > a!.seq ? b : a))!;
  return { kind: 'ok', seq: best.seq, mac: best.mac, freeze: best.freeze };
}

/** A journal the register says existed, found without its sealed head: never a new journal. */
export function missingHeadDamage(path: string, v: Verified): JournalDamage {
  return {
    reason: `The desk's register says this journal existed, but its sealed head is missing${existsSync(path) ? ` and it holds ${v.records.length} entries` : ' and so is the journal file'}: it was emptied, deleted or replaced, and starting it anew would forget its operators, policy and writes.`,
    entry: null,
    missing: 0,
  };
}

/**
 * What the anchor says about a verified journal, or null when they agree. An anchor behind the journal
 * is fine (a crash between the head and the anchor, or an anchor newly made); one ahead of it, or
 * naming another entry at its place, is not.
 */
export function anchorDamage(a: AnchorRead, records: readonly AnyRecord[], registered: boolean, path: string): JournalDamage | null {
  const restoredHint =
    "the data folder was restored from an older copy (or replaced by another desk's). Nothing is sent until an operator settles it";
  if (a.kind === 'absent') {
    if (!registered) return null;
    return {
      reason: `Its anchor (${path}), kept outside the data folder, is missing, though the register says this journal was anchored: the anchor was deleted, or the data folder was moved to another machine or state directory, so the desk cannot tell whether ${restoredHint}.`,
      entry: null,
      missing: 0,
    };
  }
  if (a.kind === 'bad') {
    return {
      reason: `Its anchor (${path}), kept outside the data folder, ${a.why}: the anchor was edited, or ${restoredHint}.`,
      entry: null,
      missing: 0,
    };
  }
  const freeze =
    a.freeze > 0 && records[a.freeze - 1]?.type !== 'freeze'
      ? ` The anchor records a freeze at entry ${a.freeze} that this copy does not hold: the desk stays stopped rather than come back unfrozen.`
      : '';
  if (a.seq > records.length) {
    const n = a.seq - records.length;
    return {
      reason: `It ends at entry ${records.length}, but its anchor outside the data folder says entry ${a.seq} was written: ${n} ${n === 1 ? 'entry is' : 'entries are'} missing, so ${restoredHint}.${freeze}`,
      entry: records.length + 1,
      missing: n,
    };
  }
  if (a.seq > 0 && !sameMac(records[a.seq - 1]!.mac, a.mac)) {
    return {
      reason: `Entry ${a.seq} is not the entry its anchor outside the data folder names: ${restoredHint}.${freeze}`,
      entry: a.seq,
      missing: 0,
    };
  }
  return null;
}

/** Puts an anchor aside (the operator archived its journal and starts anew): kept as evidence, never reused. */
export function setAnchorAside(path: string, stamp: string): void {
  if (existsSync(path)) renameSync(path, `${path}.archived-${stamp}`);
}

/** The anchor file held open by its journal's writer. */
export class AnchorWriter {
  private readonly slots: SlotWriter;

  constructor(path: string, dir: string) {
    mkdirSync(dir, { recursive: true, mode: 0o700 });
    this.slots = new SlotWriter(path);
  }

  write(key: Buffer, journalId: string, a: Anchor): void {
    const text = JSON.stringify({ format: 'td-anchor', version: 1, ...a, tag: anchorTag(key, journalId, a.seq, a.mac, a.freeze) });
    this.slots.write(a.seq, text);
  }

  close(): void {
    this.slots.close();
  }
}
