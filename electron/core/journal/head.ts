import { existsSync, readFileSync } from 'node:fs';
import { z } from 'zod';
import { writeFileAtomic } from '../vault/file.ts';
import { headTag, sameMac } from './mac.ts';

// The head says where the journal must end: the last entry's number and MAC, tagged under the journal
// key. It moves only after that entry is on disk (fsync first), so a crash between the two leaves the
// head one entry behind, which open() accepts; a journal that ends before its head has lost entries.

const HeadFile = z.strictObject({
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

export function readHead(path: string, key: Buffer, journalId: string): HeadRead {
  if (!existsSync(path)) return { kind: 'absent' };
  let parsed;
  try {
    parsed = HeadFile.safeParse(JSON.parse(readFileSync(path, 'utf8')));
  } catch {
    return { kind: 'bad', why: 'The head file is not valid JSON.' };
  }
  if (!parsed.success) return { kind: 'bad', why: 'The head file is not in the head\'s format.' };
  const { seq, mac, tag } = parsed.data;
  if (!sameMac(tag, headTag(key, journalId, seq, mac))) {
    return { kind: 'bad', why: 'The head file does not verify with the journal key: it was edited, or it belongs to another journal or another vault.' };
  }
  return { kind: 'ok', seq, mac };
}

export function writeHead(path: string, key: Buffer, journalId: string, head: Head): void {
  const file = { format: 'treasury-desk-journal-head', version: 2, ...head, tag: headTag(key, journalId, head.seq, head.mac) };
  writeFileAtomic(path, `${JSON.stringify(file)}\n`);
}
