import { closeSync, existsSync, fdatasyncSync, openSync, readFileSync, writeSync } from 'node:fs';
import { z } from 'zod';
import { headTag, sameMac } from './mac.ts';

// The head says where the journal must end: the last entry's number and MAC, tagged under the journal
// key. It moves only after that entry is on disk, so a crash between the two leaves the head one entry
// behind, which open() accepts; a journal that ends before its head has lost entries.
// The file holds two fixed-size slots written in turn (entry n goes to slot n % 2) with one fdatasync:
// a write torn by a crash spoils only its own slot, and the other still holds the previous head. That
// is half the syncs of a write-and-rename, on a path every journal entry takes.

const SLOT = 256;

const Slot = z.strictObject({
  format: z.literal('treasury-desk-journal-head'),
  version: z.literal(2),
  seq: z.number().int().min(0),
  mac: z.string().regex(/^[0-9a-f]{64}$/),
  tag: z.string().regex(/^[0-9a-f]{64}$/),
});

export interface Head {
  seq: number;
  mac: string;
}

export type HeadRead = { kind: 'absent' } | { kind: 'bad'; why: string } | ({ kind: 'ok' } & Head);

export function headPath(journalPath: string): string {
  return `${journalPath}.head`;
}

function parseSlot(text: string): z.infer<typeof Slot> | 'empty' | null {
  const t = text.trim();
  if (t === '') return 'empty';
  try {
    const parsed = Slot.safeParse(JSON.parse(t));
    return parsed.success ? parsed.data : null;
  } catch {
    return null;
  }
}

export function readHead(path: string, key: Buffer, journalId: string): HeadRead {
  if (!existsSync(path)) return { kind: 'absent' };
  const buf = readFileSync(path);
  if (buf.length !== 2 * SLOT) return { kind: 'bad', why: "The head file is not in the head's format." };
  const slots = [0, 1].map((i) => parseSlot(buf.subarray(i * SLOT, (i + 1) * SLOT).toString('utf8')));
  if (slots.every((s) => s === 'empty')) return { kind: 'absent' };
  const valid = slots.filter(
    (s): s is z.infer<typeof Slot> => s !== null && s !== 'empty' && sameMac(s.tag, headTag(key, journalId, s.seq, s.mac)),
  );
  if (valid.length === 0) {
    return {
      kind: 'bad',
      why: 'The head file does not verify with the journal key: it was edited, or it belongs to another journal or another vault.',
    };
  }
  const best = valid.reduce((a, b) => (b.seq > a.seq ? b : a));
  return { kind: 'ok', seq: best.seq, mac: best.mac };
}

/** The head file held open by its journal's writer. */
export class HeadWriter {
  private readonly fd: number;

  constructor(path: string) {
    const isNew = !existsSync(path);
    this.fd = openSync(path, isNew ? 'w+' : 'r+', 0o600);
    if (isNew) {
      writeSync(this.fd, ' '.repeat(2 * SLOT), 0, 'utf8');
      fdatasyncSync(this.fd);
    }
  }

  write(key: Buffer, journalId: string, head: Head): void {
    const text = JSON.stringify({
      format: 'treasury-desk-journal-head',
      version: 2,
      ...head,
      tag: headTag(key, journalId, head.seq, head.mac),
    });
    writeSync(this.fd, text.padEnd(SLOT, ' '), (head.seq % 2) * SLOT, 'utf8');
    fdatasyncSync(this.fd);
  }

  close(): void {
    closeSync(this.fd);
  }
}
