import type { z } from 'zod';
import {
  MainSubTransferInput,
  OwnTransferInput,
  SpotCancelAllInput,
  SpotCancelInput,
  SmallBalanceInput,
  SpotOrderInput,
  SubOwnTransferInput,
  SubToSubTransferInput,
  UidTransferInput,
  WithdrawalInput,
  type WriteInput,
} from '../../../shared/api/writes.ts';
import {
  keyName,
  permsOfText,
  permsText,
  SubAccountCreateInput,
  SubAccountKeyCreateInput,
  SubAccountKeyDeleteInput,
  SubAccountLockInput,
  SubAccountUnlockInput,
} from '../../../shared/api/subAccounts.ts';
import type { IntentKind } from '../journal/records.ts';
import type { HttpRequest } from './lookups.ts';

// The exact body that goes on the wire for each kind of write (§4.1, §4.2, §4.4). The body is what the
// journal keeps, so it holds only the fields of shared/api/writes.ts: never a credential. Whose key signs
// is not a body field: it is the intent's `signer` (journaled, and part of what operators sign).

export type { WriteInput };

export interface KindSpec {
  path: string;
  /** The body field carrying the client id, or null when the API gives the kind none. */
  idField: 'withdraw_order_id' | 'client_order_id' | 'text' | 'name' | 'login_name' | null;
  /**
   * Sending it twice does no harm (a cancel): after an unclear answer it is looked up and sent again once
   * the lookups prove it did not take effect, like a write with an id.
   */
  idempotent?: true;
  /**
   * No id, but the exchange's own records prove whether it landed (a small-balance conversion: the
   * history and the balance, writes/smallBalanceLookup.ts): after an unclear answer it is looked up, and
   * sent again only once those records prove it did not take effect, like a write with an id.
   */
  provable?: true;
  /** Whose key signs: the main key, a sub-account's own (the intent names it), or either (spot orders). */
  signer: 'main' | 'sub' | 'either';
  what: string;
}

/** Whether an unclear answer may end in a resend (after lookups prove the write absent). */
export function resendable(spec: KindSpec): boolean {
  return spec.idField !== null || spec.idempotent === true || spec.provable === true;
}

export const KINDS: Record<IntentKind, KindSpec> = {
  withdrawal: { path: '/withdrawals', idField: 'withdraw_order_id', signer: 'main', what: 'withdrawal' },
  main_sub_transfer: {
    path: '/wallet/sub_account_transfers',
    idField: 'client_order_id',
    signer: 'main',
    what: 'main/sub-account transfer',
  },
  own_transfer: { path: '/wallet/transfers', idField: null, signer: 'main', what: 'transfer between own accounts' },
  sub_to_sub_transfer: {
    path: '/wallet/sub_account_to_sub_account',
    idField: null,
    signer: 'main',
    what: 'sub-account to sub-account transfer',
  },
  sub_own_transfer: { path: '/wallet/transfers', idField: null, signer: 'sub', what: "transfer between a sub-account's own accounts" },
  uid_transfer: { path: '/withdrawals/push', idField: null, signer: 'main', what: 'UID transfer' },
  spot_order: { path: '/spot/orders', idField: 'text', signer: 'either', what: 'spot order' },
  spot_cancel: { path: '/spot/orders/{order_id}', idField: null, idempotent: true, signer: 'either', what: 'order cancellation' },
  spot_cancel_all: {
    path: '/spot/orders',
    idField: null,
    idempotent: true,
    signer: 'either',
    what: 'cancellation of every open order of a pair',
  },
  small_balance_convert: {
    path: '/wallet/small_balance',
    idField: null,
    provable: true,
    signer: 'either',
    what: 'small-balance conversion to GT',
  },
  // Locking twice, or deleting a deleted key, does no harm: after an unclear answer each is looked up
  // (GET /sub_accounts/{user_id}, its keys) and sent again only when the lookups prove it did not land.
  sub_account_lock: { path: '/sub_accounts/{user_id}/lock', idField: null, idempotent: true, signer: 'main', what: 'sub-account lock' },
  sub_account_unlock: {
    path: '/sub_accounts/{user_id}/unlock',
    idField: null,
    idempotent: true,
    signer: 'main',
    what: 'sub-account unlock',
  },
  /** The key's name (label and the write's id) finds it in the sub-account's keys before any resend. */
  sub_account_key_create: { path: '/sub_accounts/{user_id}/keys', idField: 'name', signer: 'main', what: 'sub-account key creation' },
  sub_account_key_delete: {
    path: '/sub_accounts/{user_id}/keys/{key}',
    idField: null,
    idempotent: true,
    signer: 'main',
    what: 'sub-account key removal',
  },
  /** The operator's login name is the create's client-side id: GET /sub_accounts finds it before any resend. */
  sub_account_create: { path: '/sub_accounts', idField: 'login_name', signer: 'main', what: 'sub-account creation' },
};

/** The request a journaled body becomes on the wire. */
export function wireRequest(kind: IntentKind, body: Readonly<Record<string, string | number | boolean>>): HttpRequest {
  const q = (keys: string[]): Array<[string, string]> => keys.filter((k) => body[k] !== undefined).map((k) => [k, String(body[k])]);
  switch (kind) {
    case 'spot_cancel':
      return {
        method: 'DELETE',
        path: `/spot/orders/${encodeURIComponent(String(body.order_id))}`,
        query: q(['currency_pair', 'account']),
        priority: 'action',
      };
    case 'spot_cancel_all':
      return { method: 'DELETE', path: '/spot/orders', query: q(['currency_pair', 'side', 'account']), priority: 'action' };
    case 'small_balance_convert':
      // §4.1: `currency` is a list; the journaled `amount` is the reviewed balance, never sent.
      return { method: 'POST', path: KINDS[kind].path, body: { currency: [String(body.currency)] }, priority: 'action' };
    case 'sub_account_lock':
    case 'sub_account_unlock':
      return { method: 'POST', path: subPath(kind, body), priority: 'action' };
    case 'sub_account_key_delete':
      return { method: 'DELETE', path: subPath(kind, body), priority: 'action' };
    case 'sub_account_key_create': {
      // The journal's body is flat; the wire carries the official SubAccountKey's lists.
      const ips = String(body.ip_whitelist ?? '');
      return {
        method: 'POST',
        path: subPath(kind, body),
        body: {
          mode: 1,
          name: String(body.name),
          perms: permsOfText(String(body.perms)),
          ...(ips ? { ip_whitelist: ips.split(',') } : {}),
        },
        priority: 'action',
      };
    }
    default:
      return { method: 'POST', path: KINDS[kind].path, body: { ...body }, priority: 'action' };
  }
}

/** A management path with the body's user id and key in it. */
function subPath(kind: IntentKind, body: Readonly<Record<string, string | number | boolean>>): string {
  return KINDS[kind].path
    .replace('{user_id}', encodeURIComponent(String(body.user_id)))
    .replace('{key}', encodeURIComponent(String(body.key)));
}

/** §2.10: the order's text, made from the write's id (unique) and the operator's label, if any. */
export function orderText(clientId: string, label: string | undefined): string {
  return label ? `t-${label}.${clientId.slice(-16)}` : `t-${clientId}`;
}

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
    case 'spot_order': {
      const { label, sub_uid: _signer, ...o } = parseOrThrow(SpotOrderInput, w.kind, w.input);
      return dropUndefined({ ...o, text: orderText(clientId!, label) });
    }
    case 'spot_cancel': {
      const { sub_uid: _signer, ...o } = parseOrThrow(SpotCancelInput, w.kind, w.input);
      return dropUndefined(o);
    }
    case 'spot_cancel_all': {
      const { sub_uid: _signer, ...o } = parseOrThrow(SpotCancelAllInput, w.kind, w.input);
      return dropUndefined(o);
    }
    case 'small_balance_convert': {
      const { sub_uid: _signer, ...o } = parseOrThrow(SmallBalanceInput, w.kind, w.input);
      return dropUndefined(o);
    }
    case 'sub_account_lock':
      return { ...parseOrThrow(SubAccountLockInput, w.kind, w.input) };
    case 'sub_account_unlock':
      return { ...parseOrThrow(SubAccountUnlockInput, w.kind, w.input) };
    case 'sub_account_key_delete':
      return { ...parseOrThrow(SubAccountKeyDeleteInput, w.kind, w.input) };
    case 'sub_account_key_create': {
      const k = parseOrThrow(SubAccountKeyCreateInput, w.kind, w.input);
      return dropUndefined({
        user_id: k.user_id,
        name: keyName(k.label, clientId!),
        perms: permsText(k.perms),
        ip_whitelist: k.ip_whitelist?.length ? k.ip_whitelist.join(',') : undefined,
      });
    }
    case 'sub_account_create':
      return dropUndefined(parseOrThrow(SubAccountCreateInput, w.kind, w.input));
  }
}

/** The sub-account whose key signs `w`, or null when the main key does. */
export function signerOf(w: WriteInput): string | null {
  switch (KINDS[w.kind].signer) {
    case 'main':
      return null;
    case 'sub':
      return parseOrThrow(SubOwnTransferInput, w.kind, w.input).sub_account;
    case 'either':
      return (w.input as { sub_uid?: string }).sub_uid ?? null;
  }
}
