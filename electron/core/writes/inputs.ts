import { z } from 'zod';
import { AmountString } from '../../../shared/money.ts';
import type { IntentKind } from '../journal/records.ts';

// What an operator asks for, per kind, and the exact body that goes on the wire (§4.1, §4.2). The body
// is what the journal keeps, so it holds only these fields: never a credential.

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

export type WriteInput =
  | { kind: 'withdrawal'; input: z.input<typeof WithdrawalInput> }
  | { kind: 'main_sub_transfer'; input: z.input<typeof MainSubTransferInput> }
  | { kind: 'own_transfer'; input: z.input<typeof OwnTransferInput> }
  | { kind: 'sub_to_sub_transfer'; input: z.input<typeof SubToSubTransferInput> }
  | { kind: 'uid_transfer'; input: z.input<typeof UidTransferInput> };

export interface KindSpec {
  path: string;
  /** The body field carrying the client id, or null when the API gives the kind none. */
  idField: 'withdraw_order_id' | 'client_order_id' | null;
  what: string;
}

export const KINDS: Record<IntentKind, KindSpec> = {
  withdrawal: { path: '/withdrawals', idField: 'withdraw_order_id', what: 'withdrawal' },
  main_sub_transfer: { path: '/wallet/sub_account_transfers', idField: 'client_order_id', what: 'main/sub-account transfer' },
  own_transfer: { path: '/wallet/transfers', idField: null, what: 'transfer between own accounts' },
  sub_to_sub_transfer: { path: '/wallet/sub_account_to_sub_account', idField: null, what: 'sub-account to sub-account transfer' },
  uid_transfer: { path: '/withdrawals/push', idField: null, what: 'UID transfer' },
};

export type WireBody = Record<string, string | number>;

function parseOrThrow<T>(schema: z.ZodType<T>, kind: string, input: unknown): T {
  const r = schema.safeParse(input);
  if (r.success) return r.data;
  const issue = r.error.issues[0]!;
  throw new Error(`${kind}: ${issue.path.length ? issue.path.join('.') : 'input'}: ${issue.message}`);
}

function dropUndefined(o: Record<string, string | number | undefined>): WireBody {
  return Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined)) as WireBody;
}

/** Validates an operator's request and builds the wire body; `clientId` is set in the kind's id field. */
export function buildBody(w: WriteInput, clientId: string | null): WireBody {
  switch (w.kind) {
    case 'withdrawal':
      return dropUndefined({ withdraw_order_id: clientId!, ...parseOrThrow(WithdrawalInput, w.kind, w.input) });
    case 'main_sub_transfer':
      return dropUndefined({ ...parseOrThrow(MainSubTransferInput, w.kind, w.input), client_order_id: clientId! });
    case 'own_transfer':
      return dropUndefined(parseOrThrow(OwnTransferInput, w.kind, w.input));
    case 'sub_to_sub_transfer':
      return dropUndefined(parseOrThrow(SubToSubTransferInput, w.kind, w.input));
    case 'uid_transfer': {
      const t = parseOrThrow(UidTransferInput, w.kind, w.input);
      // §4.2: receive_uid is an integer(int64) on the wire.
      return { receive_uid: Number(t.receive_uid), currency: t.currency, amount: t.amount };
    }
  }
}
