import { z } from 'zod';
import { DecimalString } from '../money.ts';
import { WireInt } from './records.ts';

// §4.4 names GET /spot/account_book without a shape; this is the live service's SpotAccountBook (Gate API
// v4 "List account book", gateio/gateapi-python docs/SpotAccountBook.md): one change of a spot balance.

export const AccountBookEntry = z.looseObject({
  id: z.union([z.string().min(1), z.number().int()]),
  /** Milliseconds. */
  time: WireInt,
  currency: z.string().min(1),
  /** Signed: positive in, negative out. */
  change: DecimalString,
  /** The balance after the change. */
  balance: DecimalString,
  type: z.string(),
  code: z.string().optional(),
  text: z.string().optional(),
});
export type AccountBookEntry = z.infer<typeof AccountBookEntry>;

/** §8.1 for this list: page-limit, at most 1,000 a page, a range of at most 30 days. */
export const ACCOUNT_BOOK_LIMIT = 1000;

/**
 * Entry types whose movement the desk keeps a record of (its history lists): such an entry is explained
 * only by a record. Others (trades, fees, transfers between own account types, conversions, sub↔sub)
 * have no list in the desk's cache, and the account book is their record. The live service names its
 * types in its documentation's "account book type" list; these are the Sandbox's (docs/sandbox.md).
 */
export const RECORDED_BOOK_TYPES: ReadonlySet<string> = new Set([
  'deposit',
  'withdraw',
  'withdraw_cancel',
  'withdraw_reject',
  'sub_account_transfer',
  'uid_transfer',
]);
