import { createHmac, timingSafeEqual } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { z } from 'zod';
import type { JournalKey } from '../journal/mac.ts';
import { writeFileAtomic } from '../vault/file.ts';

// Where the last reconciliation of a profile's journal ended. It is authenticated with the journal's key:
// a watermark moved forward by someone who can write the folder would hide records from the next
// reconciliation, so one that does not verify counts as none (the next one reads a full year). A restored
// folder brings its older watermark back with it, which is what makes the next reconciliation read
// everything the lost entries sent.

export interface Watermark {
  /** Unix seconds read up to. */
  through: number;
}

const TAG = 'treasury-desk-reconciled-v1';
const File = z.object({ through: z.number().int().nonnegative(), mac: z.string().regex(/^[0-9a-f]{64}$/) });

function macOf(key: Buffer, journalId: string, through: number): string {
  return createHmac('sha256', key).update(`${TAG}\n${journalId}\n${through}\n`, 'utf8').digest('hex');
}

export function watermarkPath(journalPath: string): string {
  return journalPath.replace(/\.jsonl$/, '.reconciled.json');
}

export function readWatermark(path: string, key: JournalKey, journalId: string): Watermark | null {
  if (!existsSync(path)) return null;
  let f: z.infer<typeof File>;
  try {
    f = File.parse(JSON.parse(readFileSync(path, 'utf8')));
  } catch {
    return null;
  }
  const want = Buffer.from(macOf(key(), journalId, f.through), 'hex');
  return timingSafeEqual(want, Buffer.from(f.mac, 'hex')) ? { through: f.through } : null;
}

export function writeWatermark(path: string, key: JournalKey, journalId: string, w: Watermark): void {
  writeFileAtomic(path, `${JSON.stringify({ through: w.through, mac: macOf(key(), journalId, w.through) })}\n`);
}
