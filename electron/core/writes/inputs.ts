import type { z } from 'zod';
import {
  MainSubTransferInput, OwnTransferInput, SubOwnTransferInput, SubToSubTransferInput, UidTransferInput, WithdrawalInput, type WriteInput,
} from '../../../shared/api/writes.ts';
import type { IntentKind } from '../journal/records.ts';

// The exact body that goes on the wire for each kind of write (§4.1, §4.2). The body is what the journal
// keeps, so it holds only the fields of shared/api/writes.ts: never a credential.

export type { WriteInput };

export interface KindSpec {
  path: string;
  /** The body field carrying the client id, or null when the API gives the kind none. */
  idField: 'withdraw_order_id' | 'client_order_id' | null;
  /** Whose key signs: the profile's main key, or the key of the sub-account the intent names. */
  signer: 'main' | 'sub';
  what: string;
}

export const KINDS: Record<IntentKind, KindSpec> = {
  withdrawal: { path: '/withdrawals', idField: 'withdraw_order_id', signer: 'main', what: 'withdrawal' },
  main_sub_transfer: { path: '/wallet/sub_account_transfers', idField: 'client_order_id', signer: 'main', what: 'main/sub-account transfer' },
  own_transfer: { path: '/wallet/transfers', idField: null, signer: 'main', what: 'transfer between own accounts' },
  sub_to_sub_transfer: { path: '/wallet/sub_account_to_sub_account', idField: null, signer: 'main', what: 'sub-account to sub-account transfer' },
  sub_own_transfer: { path: '/wallet/transfers', idField: null, signer: 'sub', what: 'transfer between a sub-account\'s own accounts' },
  uid_transfer: { path: '/withdrawals/push', idField: null, signer: 'main', what: 'UID transfer' },
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
    case 'sub_own_transfer': {
      // The signer is the intent's, never the body's: the wire body is §4.1's own-account body exactly.
      const { sub_account: _signer, ...body } = parseOrThrow(SubOwnTransferInput, w.kind, w.input);
      return dropUndefined(body);
    }
    case 'uid_transfer': {
      const t = parseOrThrow(UidTransferInput, w.kind, w.input);
      // §4.2: receive_uid is an integer(int64) on the wire.
      return { receive_uid: Number(t.receive_uid), currency: t.currency, amount: t.amount };
    }
  }
}

/** The sub-account whose key signs `w`, or null when the main key does. */
export function signerOf(w: WriteInput): string | null {
  if (KINDS[w.kind].signer === 'main') return null;
  return parseOrThrow(SubOwnTransferInput, w.kind, w.input).sub_account;
}
