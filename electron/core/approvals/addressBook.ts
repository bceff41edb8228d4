import { z } from 'zod';
import type { AddressBookEntryView } from '../../../shared/addressBook.ts';
import { destinationProblems } from '../../../shared/destination.ts';
import { InputError } from '../errors.ts';
import { verifySignature } from '../operators/keys.ts';
import type { BookEntry } from '../policy/destinations.ts';
import { JsonFile } from '../store/jsonFile.ts';
import { activeAt, entryKey, type Operator } from '../governance/state.ts';

// The desk's own address book. An entry is an operator's signed act: it is added only when an operator
// signs it in the confirmation window, and it counts as a known destination only while its signature
// verifies (an operator in force when it was signed, over exactly this destination and time) and after
// the cooling-off (policy/destinations.ts). So neither a script in the window nor someone who can write
// this file can make an address known: an edited, copied or unsigned entry counts for nothing.

const Signed = z.strictObject({
  operator: z.string().min(1).max(64),
  name: z.string().min(1).max(64),
  signature: z.string().min(1).max(200),
});

const Entry = z.strictObject({
  currency: z.string().min(1).max(32),
  chain: z.string().min(1).max(64),
  address: z.string().min(1).max(256),
  memo: z.string().max(256).optional(),
  added_at: z.number(),
  /** Absent on entries written before entries were signed: they are listed, and count for nothing. */
  signed: Signed.optional(),
});
type Entry = z.infer<typeof Entry>;
const Book = z.array(Entry).max(10_000);

export type NewEntry = Omit<BookEntry, 'added_at'>;
export type EntrySignature = z.infer<typeof Signed>;

/** Signing texts start with their own tag, so an address-book signature can never pass for a governance one, nor the reverse. */
export function entryText(e: BookEntry): string {
  const fields = { added_at: e.added_at, address: e.address, chain: e.chain, currency: e.currency, memo: e.memo ?? '' };
  return ['treasury-desk-address-book-v1', JSON.stringify(fields)].join('\n');
}

const sameDestination = (a: NewEntry, b: NewEntry): boolean =>
  a.currency === b.currency && a.chain === b.chain && a.address === b.address && (a.memo ?? '') === (b.memo ?? '');

export interface AddressBookOptions {
  path: string;
  coolingOffMs: number;
  now: () => number;
  /** The operators of the governance whose signatures count here (the active profile's). */
  operators: () => Promise<ReadonlyMap<string, Operator>>;
  /** The entries a quorum removed (governance/state.ts entryKey): listed as removed, and never a known destination. */
  removed: () => Promise<ReadonlySet<string>>;
}

export class AddressBook {
  private readonly file: JsonFile<typeof Book>;

  constructor(private readonly opts: AddressBookOptions) {
    this.file = new JsonFile(opts.path, Book, () => []);
  }

  /** How long an entry waits before it counts as a known destination. */
  get coolingOffMs(): number {
    return this.opts.coolingOffMs;
  }

  /** The entries that count as known destinations (cooling-off aside): those whose signature verifies. */
  async list(): Promise<BookEntry[]> {
    const operators = await this.opts.operators();
    const removed = await this.opts.removed();
    return this.file
      .read()
      .filter((e) => refusal(e, operators) === null && !removed.has(entryKey(e)))
      .map(({ signed: _signed, ...e }) => e);
  }

  /** Every entry, with when it counts and why it does not. */
  async withReadiness(): Promise<AddressBookEntryView[]> {
    const operators = await this.opts.operators();
    const removed = await this.opts.removed();
    return this.file.read().map(({ signed, ...e }) => ({
      ...e,
      ready_at: e.added_at + this.opts.coolingOffMs,
      signed_by: signed?.name ?? null,
      removed: removed.has(entryKey(e)),
      refused: removed.has(entryKey(e))
        ? 'Removed from the address book by a quorum of operators: it is no known destination.'
        : refusal({ ...e, ...(signed ? { signed } : {}) }, operators),
    }));
  }

  /** Refuses, before anything is signed, a destination that is malformed or in the book already. */
  checkNew(e: NewEntry, removed: ReadonlySet<string> = new Set()): void {
    const problem = destinationProblems(e)[0];
    if (problem) throw new InputError([problem.field], problem.message);
    if (this.has(e, removed)) throw new InputError(['address'], 'that address is in the address book already.');
  }

  /** A signed entry for this destination is in the book (one a quorum removed aside). */
  has(e: NewEntry, removed: ReadonlySet<string>): boolean {
    return this.file.read().some((b) => b.signed && sameDestination(b, e) && !removed.has(entryKey(b)));
  }

  /**
   * Adds the entry once an operator signs it: `sign` gets the exact text (with the time it is added) and
   * answers the operator's signature. An unsigned entry for the same destination is replaced.
   */
  async add(e: NewEntry, sign: (text: string) => Promise<EntrySignature>): Promise<{ added_at: number; ready_at: number }> {
    this.checkNew(e, await this.opts.removed());
    const entry: BookEntry = {
      currency: e.currency,
      chain: e.chain,
      address: e.address,
      ...(e.memo ? { memo: e.memo } : {}),
      added_at: this.opts.now(),
    };
    const signed = await sign(entryText(entry));
    // Another ticket for the same destination may have been signed while this one was.
    this.checkNew(e, await this.opts.removed());
    const kept = this.file.read().filter((b) => !sameDestination(b, e));
    this.file.write([...kept, { ...entry, signed }]);
    return { added_at: entry.added_at, ready_at: entry.added_at + this.opts.coolingOffMs };
  }
}

/** Why a stored entry counts for nothing, or null when it counts. */
function refusal(e: Entry, operators: ReadonlyMap<string, Operator>): string | null {
  const bad = destinationProblems(e)[0];
  if (bad) return `${bad.message} It was written outside the desk.`;
  if (!e.signed) return 'No operator signed this entry (it was written before entries were signed, or outside the desk). Add it again.';
  const op = operators.get(e.signed.operator);
  if (!op) return `${e.signed.name} is not an operator of this desk's governance: the entry was copied from elsewhere or forged.`;
  if (!activeAt(op, e.added_at)) return `${op.name} was not an operator in force when this entry says it was added.`;
  if (op.name !== e.signed.name || !verifySignature(op.public_key, entryText(e), e.signed.signature)) {
    return `${op.name}'s signature does not verify over this entry: it was changed outside the desk.`;
  }
  return null;
}
