import Decimal from 'decimal.js';
import { ACCOUNT_KINDS, type AccountKind, type Cell } from '../../../shared/balances.ts';
import { Dec, fmt, isDecimalString } from '../../../shared/money.ts';
import { valueOf, type Prices } from './valuation.ts';

// What each §2.8 account holds, per currency, net of debt; the same rules serve the sub-accounts and
// the main account's own accounts:
// - spot: available + locked;
// - isolated margin: for base and quote of each pair, available + locked - borrowed - interest
//   (§2.8: available already includes what was borrowed);
// - futures, per settlement currency: total + unrealised_pnl (§2.8: total excludes unrealised pnl);
//   `available` where `total` is absent;
// - cross margin: per currency available + freeze - borrowed - interest; nothing when user_id is 0.

export type Amounts = Record<string, Decimal>;
type W = Record<string, unknown>;

const d = (v: unknown): Decimal => (typeof v === 'string' && isDecimalString(v) ? new Dec(v) : new Dec(0));

function add(into: Amounts, currency: unknown, v: Decimal): void {
  if (typeof currency !== 'string' || currency === '') return;
  const c = currency.toUpperCase();
  into[c] = (into[c] ?? new Dec(0)).plus(v);
}

export function spotAmounts(available: Record<string, string> | undefined, locked: Record<string, string> | undefined): Amounts {
  const out: Amounts = {};
  for (const [c, v] of Object.entries(available ?? {})) add(out, c, d(v));
  for (const [c, v] of Object.entries(locked ?? {})) add(out, c, d(v));
  return out;
}

export function marginAmounts(pairs: unknown): Amounts {
  const out: Amounts = {};
  if (!Array.isArray(pairs)) return out;
  for (const p of pairs as W[]) {
    for (const side of [p?.base, p?.quote] as (W | undefined)[]) {
      if (!side) continue;
      add(out, side.currency, d(side.available).plus(d(side.locked)).minus(d(side.borrowed)).minus(d(side.interest)));
    }
  }
  return out;
}

export function futuresAmounts(settle: string, account: W | undefined): Amounts {
  const out: Amounts = {};
  if (!account || Object.keys(account).length === 0) return out;
  const base = typeof account.total === 'string' && account.total !== '' ? d(account.total) : d(account.available);
  add(out, typeof account.currency === 'string' ? account.currency : settle, base.plus(d(account.unrealised_pnl)));
  return out;
}

export function crossAmounts(account: W | null | undefined): Amounts {
  const out: Amounts = {};
  if (!account || account.user_id === 0) return out;
  for (const [c, b] of Object.entries((account.balances ?? {}) as Record<string, W>)) {
    add(out, c, d(b.available).plus(d(b.freeze)).minus(d(b.borrowed)).minus(d(b.interest)));
  }
  return out;
}

export function cellOf(amounts: Amounts, prices: Prices, quote: string): Cell {
  // Most sub-accounts leave most kinds empty: no arithmetic for those.
  if (Object.keys(amounts).length === 0) return { amounts: {}, value: '0', unpriced: [] };
  const shown: Record<string, string> = {};
  for (const [c, a] of Object.entries(amounts)) if (!a.isZero()) shown[c] = fmt(a);
  return { amounts: shown, ...valueOf(amounts, prices, quote) };
}

export function cellsOf(
  k: Record<AccountKind, Amounts>,
  prices: Prices,
  quote: string,
): { cells: Record<AccountKind, Cell>; total: string } {
  const cells = {} as Record<AccountKind, Cell>;
  let total = new Dec(0);
  for (const kind of ACCOUNT_KINDS) {
    cells[kind] = cellOf(k[kind], prices, quote);
    total = total.plus(cells[kind].value);
  }
  return { cells, total: fmt(total) };
}

/** Holdings of one currency across every kind (what a low-balance floor is compared with). */
export function holdingOf(k: Record<AccountKind, Amounts>, currency: string): Decimal {
  return ACCOUNT_KINDS.reduce((s, kind) => s.plus(k[kind][currency] ?? 0), new Dec(0));
}
