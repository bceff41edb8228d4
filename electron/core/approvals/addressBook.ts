import { z } from 'zod';
import type { BookEntry } from '../policy/destinations.ts';
import { InputError } from '../errors.ts';
import { JsonFile } from '../store/jsonFile.ts';

// The desk's own address book. An entry counts as a known destination only after the cooling-off
// (policy/destinations.ts), so an address slipped in today, by a script in the window or by someone
// who can write this file, cannot receive money under a rule that needs a known address today.

const Entry = z.strictObject({
  currency: z.string().min(1).max(32),
  chain: z.string().min(1).max(64),
  address: z.string().min(1).max(256),
  memo: z.string().max(256).optional(),
  added_at: z.number(),
});
const Book = z.array(Entry).max(10_000);

export class AddressBook {
  private readonly file: JsonFile<typeof Book>;

  constructor(
    path: string,
    private readonly coolingOffMs: number,
    private readonly now: () => number,
  ) {
    this.file = new JsonFile(path, Book, () => []);
  }

  list(): BookEntry[] {
    return this.file.read();
  }

  withReadiness(): (BookEntry & { ready_at: number })[] {
    return this.list().map((e) => ({ ...e, ready_at: e.added_at + this.coolingOffMs }));
  }

  add(e: Omit<BookEntry, 'added_at'>): { added_at: number; ready_at: number } {
    const book = this.list();
    if (
      book.some((b) => b.currency === e.currency && b.chain === e.chain && b.address === e.address && (b.memo ?? '') === (e.memo ?? ''))
    ) {
      throw new InputError(['address'], 'that address is in the address book already.');
    }
    const added_at = this.now();
    this.file.write([...book, { ...e, ...(e.memo ? { memo: e.memo } : {}), added_at }]);
    return { added_at, ready_at: added_at + this.coolingOffMs };
  }
}
