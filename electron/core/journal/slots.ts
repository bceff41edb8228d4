import { closeSync, existsSync, fdatasyncSync, openSync, readFileSync, writeSync } from 'node:fs';

// A file of two fixed-size slots written in turn (record n goes to slot n % 2) with one fdatasync: a
// write torn by a crash spoils only its own slot, and the other still holds the previous record. That
// is half the syncs of a write-and-rename, on a path every journal entry takes. The journal's head and
// its anchor outside the data folder are both kept this way.

export const SLOT = 256;

/** Each slot's text, trimmed ('' for a slot never written); null when the file is absent; 'bad' when it is not two slots. */
export function readSlots(path: string): [string, string] | null | 'bad' {
  if (!existsSync(path)) return null;
  const buf = readFileSync(path);
  if (buf.length !== 2 * SLOT) return 'bad';
  return [buf.subarray(0, SLOT).toString('utf8').trim(), buf.subarray(SLOT).toString('utf8').trim()];
}

export class SlotWriter {
  private readonly fd: number;

  constructor(path: string) {
    const isNew = !existsSync(path);
    this.fd = openSync(path, isNew ? 'w+' : 'r+', 0o600);
    if (isNew) {
      writeSync(this.fd, ' '.repeat(2 * SLOT), 0, 'utf8');
      fdatasyncSync(this.fd);
    }
  }

  write(slot: number, text: string): void {
    if (Buffer.byteLength(text) > SLOT) throw new Error(`a slot holds at most ${SLOT} bytes`);
    writeSync(this.fd, text.padEnd(SLOT, ' '), (slot % 2) * SLOT, 'utf8');
    fdatasyncSync(this.fd);
  }

  close(): void {
    closeSync(this.fd);
  }
}
