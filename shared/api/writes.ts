import { z } from 'zod';
import { AmountString } from '../money.ts';

// What an operator may ask the desk to send, per kind (§4.1, §4.2). The renderer's forms and the core
// check the same schemas; the core then builds the exact wire body from them.

const Name = z.string().trim().min(1).max(64);
const Uid = z.string().regex(/^\d{1,18}$/, 'must be a user id (digits)');

export const WithdrawalInput = z.strictObject({
  currency: Name,
  amount: AmountString,
  address: z.string().trim().min(1).max(256),
  chain: Name,
  memo: z.string().max(256).optional(),
});

export const MainSubTransferInput = z.strictObject({
  sub_account: Uid,
  sub_account_type: z.enum(['spot', 'futures', 'delivery', 'options']).optional(),
  currency: Name,
  amount: AmountString,
  direction: z.enum(['to', 'from']),
});

const AccountSide = z.enum(['spot', 'margin', 'futures', 'delivery', 'options']);
export const OwnTransferInput = z.strictObject({
  currency: Name,
  from: AccountSide,
  to: AccountSide,
  amount: AmountString,
  currency_pair: Name.optional(),
  settle: Name.optional(),
}).refine((t) => t.from !== t.to, { message: 'from and to must be different accounts' });

/**
 * A move between one sub-account's own accounts (§4.1 POST /wallet/transfers), signed by that
 * sub-account's key. `sub_account` names whose key signs; it is not part of the wire body.
 */
export const SubOwnTransferInput = z.strictObject({
  sub_account: Uid,
  currency: Name,
  from: AccountSide,
  to: AccountSide,
  amount: AmountString,
  currency_pair: Name.optional(),
  settle: Name.optional(),
}).refine((t) => t.from !== t.to, { message: 'from and to must be different accounts' });

const SubSide = z.enum(['spot', 'futures', 'delivery']);
export const SubToSubTransferInput = z.strictObject({
  currency: Name,
  sub_account_from: Uid,
  sub_account_from_type: SubSide,
  sub_account_to: Uid,
  sub_account_to_type: SubSide,
  amount: AmountString,
});

export const UidTransferInput = z.strictObject({
  receive_uid: Uid.refine((s) => Number.isSafeInteger(Number(s)), { message: 'user id is too large' }),
  currency: Name,
  amount: AmountString,
});

/** A write as the renderer hands it to the core: declared once; the kinds and types below derive from it. */
export const WriteRequest = z.discriminatedUnion('kind', [
  z.strictObject({ kind: z.literal('withdrawal'), input: WithdrawalInput }),
  z.strictObject({ kind: z.literal('main_sub_transfer'), input: MainSubTransferInput }),
  z.strictObject({ kind: z.literal('own_transfer'), input: OwnTransferInput }),
  z.strictObject({ kind: z.literal('sub_to_sub_transfer'), input: SubToSubTransferInput }),
  z.strictObject({ kind: z.literal('sub_own_transfer'), input: SubOwnTransferInput }),
  z.strictObject({ kind: z.literal('uid_transfer'), input: UidTransferInput }),
]);
export type WriteInput = z.input<typeof WriteRequest>;
export type WriteKind = WriteInput['kind'];
export const WriteKind = z.enum(WriteRequest.options.map((o) => o.shape.kind.value) as [WriteKind, ...WriteKind[]]);
export const WRITE_KINDS = WriteKind.options;
