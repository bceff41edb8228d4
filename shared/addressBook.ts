import { z } from 'zod';
import { refineDestination } from './destination.ts';

// The desk's address book as the contract carries it. Adding an entry only asks: an operator signs it in
// the confirmation window, and it counts as a known destination once its cooling-off is over and its
// signature verifies against an operator who was in force when it was signed.

export const AddressBookAddRequest = z
  .strictObject({
    currency: z.string().trim().min(1).max(32),
    chain: z.string().trim().min(1).max(64),
    address: z.string().trim().min(1).max(256),
    memo: z.string().max(256).optional(),
  })
  .superRefine(refineDestination);

export const AddressBookAdded = z.object({ ticket: z.string(), title: z.string() });

/** An entry to remove, named as its signature covers it: its destination and the time it was added. */
export const RemovedEntry = z.strictObject({
  currency: z.string().min(1).max(32),
  chain: z.string().min(1).max(64),
  address: z.string().min(1).max(256),
  memo: z.string().max(256).optional(),
  added_at: z.number().int().nonnegative(),
});
export type RemovedEntry = z.infer<typeof RemovedEntry>;

export const AddressBookEntryView = z.object({
  currency: z.string(),
  chain: z.string(),
  address: z.string(),
  memo: z.string().optional(),
  added_at: z.number(),
  ready_at: z.number(),
  /** The operator who signed it, as the signature names them (null: unsigned). */
  signed_by: z.string().nullable(),
  /** A quorum removed it: listed, and never a known destination. */
  removed: z.boolean(),
  /** Why the entry counts for nothing (an unsigned entry, a signature that does not verify, removed), or null. */
  refused: z.string().nullable(),
});
export type AddressBookEntryView = z.infer<typeof AddressBookEntryView>;
