import type { WriteInput } from '../../../../shared/api/writes.ts';

// What each transfer form asks for and the write it hands the core (shared/api/writes.ts), kept apart
// from the components so that the exact request of each form is tested on its own.

export const FORMS = ['own', 'main_sub', 'sub_to_sub', 'sub_own'] as const;
export type TransferFormKind = (typeof FORMS)[number];

export const FORM_NAMES: Record<TransferFormKind, string> = {
  own: "Main account's own accounts",
  main_sub: 'Main ↔ sub-account',
  sub_to_sub: 'Sub-account → sub-account',
  sub_own: 'Within a sub-account (its key)',
};

/** §4.1 POST /wallet/transfers sides. */
export const OWN_SIDES = ['spot', 'margin', 'futures', 'delivery', 'options'] as const;
/** §4.1 POST /wallet/sub_account_transfers `sub_account_type`. */
export const MAIN_SUB_TYPES = ['spot', 'futures', 'delivery', 'options'] as const;
/** §4.1 POST /wallet/sub_account_to_sub_account sides. */
export const SUB_SIDES = ['spot', 'futures', 'delivery'] as const;

export type OwnSide = (typeof OWN_SIDES)[number];

export interface Values {
  currency: string;
  amount: string;
  /** own and sub_own */
  from: OwnSide;
  to: OwnSide;
  currency_pair: string;
  settle: string;
  /** main_sub and sub_own: the sub-account */
  sub_account: string;
  sub_account_type: (typeof MAIN_SUB_TYPES)[number];
  direction: 'to' | 'from';
  /** sub_to_sub */
  sub_account_from: string;
  sub_account_from_type: (typeof SUB_SIDES)[number];
  sub_account_to: string;
  sub_account_to_type: (typeof SUB_SIDES)[number];
}

export const EMPTY: Values = {
  currency: 'USDT',
  amount: '',
  from: 'spot',
  to: 'futures',
  currency_pair: '',
  settle: '',
  sub_account: '',
  sub_account_type: 'spot',
  direction: 'to',
  sub_account_from: '',
  sub_account_from_type: 'spot',
  sub_account_to: '',
  sub_account_to_type: 'spot',
};

export const needsPair = (v: Pick<Values, 'from' | 'to'>): boolean => v.from === 'margin' || v.to === 'margin';
export const needsSettle = (v: Pick<Values, 'from' | 'to'>): boolean => [v.from, v.to].some((k) => k === 'futures' || k === 'delivery');

/** §4.1: the settlement currency of a contract side; the transfer's own currency unless the operator names another. */
const settleOf = (v: Values): string => v.settle.trim().toLowerCase() || v.currency.trim().toLowerCase();

/** The write a form asks for: only the fields its endpoint takes (a pair only with margin, a settle only with contracts). */
export function toWrite(form: TransferFormKind, v: Values): WriteInput {
  const currency = v.currency.trim().toUpperCase();
  const amount = v.amount.trim();
  const own = {
    currency,
    from: v.from,
    to: v.to,
    amount,
    ...(needsPair(v) ? { currency_pair: v.currency_pair.trim().toUpperCase() } : {}),
    ...(needsSettle(v) ? { settle: settleOf(v) } : {}),
  };
  switch (form) {
    case 'own':
      return { kind: 'own_transfer', input: own };
    case 'sub_own':
      return { kind: 'sub_own_transfer', input: { sub_account: v.sub_account.trim(), ...own } };
    case 'main_sub':
      return {
        kind: 'main_sub_transfer',
        input: { sub_account: v.sub_account.trim(), sub_account_type: v.sub_account_type, currency, amount, direction: v.direction },
      };
    case 'sub_to_sub':
      return {
        kind: 'sub_to_sub_transfer',
        input: {
          currency,
          sub_account_from: v.sub_account_from.trim(),
          sub_account_from_type: v.sub_account_from_type,
          sub_account_to: v.sub_account_to.trim(),
          sub_account_to_type: v.sub_account_to_type,
          amount,
        },
      };
  }
}

/** The account a transfer draws from: 'main' or a sub-account's uid, and which of its accounts. */
export interface Source {
  owner: string;
  kind: OwnSide;
  pair?: string;
  settle?: string;
}

export function sourceOf(form: TransferFormKind, v: Values): Source {
  const settle = settleOf(v);
  const pair = v.currency_pair.trim().toUpperCase() || undefined;
  switch (form) {
    case 'own':
      return { owner: 'main', kind: v.from, ...(pair ? { pair } : {}), settle };
    case 'sub_own':
      return { owner: v.sub_account.trim(), kind: v.from, ...(pair ? { pair } : {}), settle };
    case 'main_sub':
      return v.direction === 'to'
        ? { owner: 'main', kind: 'spot' }
        : { owner: v.sub_account.trim(), kind: v.sub_account_type, settle: v.currency.trim().toLowerCase() };
    case 'sub_to_sub':
      return { owner: v.sub_account_from.trim(), kind: v.sub_account_from_type, settle: v.currency.trim().toLowerCase() };
  }
}
