import { z } from 'zod';
import { refineDestination } from '../destination.ts';
import { amountProblem, AmountString } from '../money.ts';
import { ORDER_ACCOUNTS, ORDER_SIDES, ORDER_TYPES } from './orders.ts';
import {
  SubAccountCreateInput,
  SubAccountKeyCreateInput,
  SubAccountKeyDeleteInput,
  SubAccountLockInput,
  SubAccountUnlockInput,
} from './subAccounts.ts';

// What an operator may ask the desk to send, per kind (§4.1, §4.2). The renderer's forms and the core
// check the same schemas; the core then builds the exact wire body from them.

const Name = z.string().trim().min(1).max(64);
const Uid = z.string().regex(/^\d{1,18}$/, 'must be a user id (digits)');

export const WithdrawalInput = z
  .strictObject({
    currency: Name,
    amount: AmountString,
    address: z.string().trim().min(1).max(256),
    chain: Name,
    memo: z.string().max(256).optional(),
  })
  .superRefine(refineDestination);

export const MainSubTransferInput = z.strictObject({
  sub_account: Uid,
  sub_account_type: z.enum(['spot', 'futures', 'delivery', 'options']).optional(),
  currency: Name,
  amount: AmountString,
  direction: z.enum(['to', 'from']),
});

const AccountSide = z.enum(['spot', 'margin', 'futures', 'delivery', 'options']);
const ownTransferFields = {
  currency: Name,
  from: AccountSide,
  to: AccountSide,
  amount: AmountString,
  currency_pair: Name.optional(),
  settle: Name.optional(),
};
const sidesDiffer = (t: { from: string; to: string }) => t.from !== t.to;
const SAME_SIDES = { message: 'from and to must be different accounts' };
export const OwnTransferInput = z.strictObject(ownTransferFields).refine(sidesDiffer, SAME_SIDES);

/**
 * A move between one sub-account's own accounts (§4.1 POST /wallet/transfers), signed by that
 * sub-account's key. `sub_account` names whose key signs; it is not part of the wire body.
 */
export const SubOwnTransferInput = z.strictObject({ sub_account: Uid, ...ownTransferFields }).refine(sidesDiffer, SAME_SIDES);

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

/** A spot order's amount or price: a plain decimal above 0; the pair's own precision is checked against its rules. */
const OrderDecimal = z.string().superRefine((s, ctx) => {
  const p = amountProblem(s, 20);
  if (p) ctx.addIssue({ code: 'custom', message: p });
});
const Pair = z.string().regex(/^[A-Z0-9]{1,16}_[A-Z0-9]{1,16}$/, 'a currency pair such as BTC_USDT');
/** Signed by this sub-account's own key (the profile must hold it); absent: the main account. */
const SubSigner = Uid.optional();
/**
 * The operator's label for an order. The desk makes the order's `text` (§2.10: `t-` and at most 28
 * characters) from it and the write's own id, so that every order stays findable by a unique text.
 */
export const ORDER_LABEL_MAX = 10;
const OrderLabel = z
  .string()
  .regex(new RegExp(`^[0-9A-Za-z_.-]{1,${ORDER_LABEL_MAX}}$`), `a label is 1 to ${ORDER_LABEL_MAX} letters, digits, _ - or .`);

export const SpotOrderInput = z
  .strictObject({
    currency_pair: Pair,
    side: z.enum(ORDER_SIDES),
    type: z.enum(ORDER_TYPES),
    account: z.enum(ORDER_ACCOUNTS),
    /** Base currency; for a market buy, the quote currency to spend (the live service's rule). */
    amount: OrderDecimal,
    /** Limit orders only. */
    price: OrderDecimal.optional(),
    time_in_force: z.enum(['gtc', 'ioc', 'poc', 'fok']),
    label: OrderLabel.optional(),
    stp_act: z.enum(['cn', 'co', 'cb']).optional(),
    sub_uid: SubSigner,
  })
  .superRefine((o, ctx) => {
    if (o.type === 'limit' && o.price === undefined)
      ctx.addIssue({ code: 'custom', path: ['price'], message: 'a limit order needs a price' });
    if (o.type === 'market' && o.price !== undefined)
      ctx.addIssue({ code: 'custom', path: ['price'], message: 'a market order takes no price' });
    if (o.type === 'market' && (o.time_in_force === 'gtc' || o.time_in_force === 'poc')) {
      ctx.addIssue({ code: 'custom', path: ['time_in_force'], message: 'a market order is immediate or cancel, or fill or kill' });
    }
  });

export const SpotCancelInput = z.strictObject({
  currency_pair: Pair,
  order_id: z.string().regex(/^\d{1,20}$/, 'an order id is digits'),
  account: z.enum(ORDER_ACCOUNTS).optional(),
  sub_uid: SubSigner,
});

export const SpotCancelAllInput = z.strictObject({
  currency_pair: Pair,
  side: z.enum(ORDER_SIDES).optional(),
  account: z.enum(ORDER_ACCOUNTS).optional(),
  sub_uid: SubSigner,
});

/**
 * Converting one currency's small balance of one account to GT (§4.1 POST /wallet/small_balance), signed
 * by that account's own key (`sub_uid`; absent: the main account). `amount` is the balance as reviewed:
 * the policy values it in USDT and the journal keeps it, but the wire body is `{"currency": [currency]}`
 * alone (writes/inputs.ts wireRequest). The desk never sends `is_all`: it would convert whatever is small
 * when it lands, not what the operators reviewed.
 */
export const SmallBalanceInput = z.strictObject({
  currency: Name,
  /** Dust may carry more than §8.5's 8 decimals: it is never sent, only valued and kept. */
  amount: OrderDecimal,
  sub_uid: SubSigner,
});

/** A write as the renderer hands it to the core: declared once; the kinds and types below derive from it. */
export const WriteRequest = z.discriminatedUnion('kind', [
  z.strictObject({ kind: z.literal('withdrawal'), input: WithdrawalInput }),
  z.strictObject({ kind: z.literal('main_sub_transfer'), input: MainSubTransferInput }),
  z.strictObject({ kind: z.literal('own_transfer'), input: OwnTransferInput }),
  z.strictObject({ kind: z.literal('sub_to_sub_transfer'), input: SubToSubTransferInput }),
  z.strictObject({ kind: z.literal('sub_own_transfer'), input: SubOwnTransferInput }),
  z.strictObject({ kind: z.literal('uid_transfer'), input: UidTransferInput }),
  z.strictObject({ kind: z.literal('spot_order'), input: SpotOrderInput }),
  z.strictObject({ kind: z.literal('spot_cancel'), input: SpotCancelInput }),
  z.strictObject({ kind: z.literal('spot_cancel_all'), input: SpotCancelAllInput }),
  z.strictObject({ kind: z.literal('small_balance_convert'), input: SmallBalanceInput }),
  z.strictObject({ kind: z.literal('sub_account_lock'), input: SubAccountLockInput }),
  z.strictObject({ kind: z.literal('sub_account_unlock'), input: SubAccountUnlockInput }),
  z.strictObject({ kind: z.literal('sub_account_key_create'), input: SubAccountKeyCreateInput }),
  z.strictObject({ kind: z.literal('sub_account_key_delete'), input: SubAccountKeyDeleteInput }),
  z.strictObject({ kind: z.literal('sub_account_create'), input: SubAccountCreateInput }),
]);
export type WriteInput = z.input<typeof WriteRequest>;
export type WriteKind = WriteInput['kind'];
export const WriteKind = z.enum(WriteRequest.options.map((o) => o.shape.kind.value) as [WriteKind, ...WriteKind[]]);
export const WRITE_KINDS = WriteKind.options;
