import { z } from 'zod';
import { headTag, sameMac } from './mac.ts';
import { readSlots, SlotWriter } from './slots.ts';

// The head says where the journal must end: the last entry's number and MAC, tagged under the journal
// key. It moves only after that entry is on disk, so a crash between the two leaves the head one entry
// behind, which open() accepts; a journal that ends before its head has lost entries. A new journal's
// head says "entry 0" at once, so that a journal the desk knows existed never has an absent head.

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

function parseSlot(text: string): z.infer<typeof Slot> | null {
  try {
    const parsed = Slot.safeParse(JSON.parse(text));
    return parsed.success ? parsed.data : null;
  } catch {
    return null;
  }
}

export function readHead(path: string, key: Buffer, journalId: string): HeadRead {
  const slots = readSlots(path);
  if (slots === null) return { kind: 'absent' };
  if (slots === 'bad') return { kind: 'bad', why: "The head file is not in the head's format." };
  if (slots.every((s) => s === '')) return { kind: 'absent' };
  const valid = slots
    .map((s) => (s === '' ? null : parseSlot(s)))
    .filter((s): s is z.infer<typeof Slot> => s !== null && sameMac(s.tag, headTag(key, journalId, s.seq, s.mac)));
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
  private readonly slots: SlotWriter;

  constructor(path: string) {
    this.slots = new SlotWriter(path);
  }

  write(key: Buffer, journalId: string, head: Head): void {
    const text = JSON.stringify({
      format: 'treasury-desk-journal-head',
      version: 2,
      ...head,
      tag: headTag(key, journalId, head.seq, head.mac),
    });
    this.slots.write(head.seq, text);
  }

  close(): void {
    this.slots.close();
  }
}
