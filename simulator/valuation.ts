import Decimal from 'decimal.js';
import type { DB } from './db.ts';
import { ApiError } from './errors.ts';

const D = Decimal.clone({ precision: 40, rounding: Decimal.ROUND_DOWN });

// Fiat targets of §4.1 total_balance that are not traded currencies: fixed rates in the Sandbox.
const FIAT_PER_USDT: Record<string, string> = { USD: '1', CNY: '7.1' };

function priceTable(db: DB): Map<string, Decimal> {
  const rows = db.prepare('SELECT currency, usdt FROM prices').all() as { currency: string; usdt: string }[];
  return new Map(rows.map((r) => [r.currency, new D(r.usdt)]));
}

/** USDT value of one unit of the target currency. */
function targetRate(prices: Map<string, Decimal>, target: string): Decimal {
  const fiat = FIAT_PER_USDT[target];
  if (fiat) return new D(1).div(fiat);
  const p = prices.get(target);
  if (!p) throw new ApiError('INVALID_CURRENCY', `cannot value in ${target}`);
  return p;
}

interface Row {
  account_type: string;
  currency: string;
  available: string;
  locked: string;
  borrowed: string;
  unrealised_pnl: string;
}

interface Detail {
  amount: Decimal;
  borrowed: Decimal;
  pnl: Decimal;
}

const PNL_TYPES = new Set(['futures', 'delivery', 'options']);
const BORROW_TYPES = new Set(['margin', 'cross_margin']);

/**
 * §2.9 total balance of one account (not its sub-accounts). amount is the gross value of what the
 * account type holds (available + locked), borrowed is reported beside it, and unrealised pnl is not
 * in amount (as the futures `total` field excludes it). Each figure is valued at the price table and
 * cut to 8 decimals; the total is the sum of the cut details, so the parts add up to the whole.
 */
export function totalBalance(db: DB, uid: string, target: string) {
  const prices = priceTable(db);
  const rate = targetRate(prices, target);
  const rows = db
    .prepare('SELECT account_type, currency, available, locked, borrowed, unrealised_pnl FROM balances WHERE uid = ?')
    .all(uid) as Row[];
  const acc = new Map<string, Detail>();
  for (const r of rows) {
    const p = prices.get(r.currency) ?? new D(0);
    const d = acc.get(r.account_type) ?? { amount: new D(0), borrowed: new D(0), pnl: new D(0) };
    d.amount = d.amount.plus(new D(r.available).plus(r.locked).times(p));
    d.borrowed = d.borrowed.plus(new D(r.borrowed).times(p));
    d.pnl = d.pnl.plus(new D(r.unrealised_pnl).times(p));
    acc.set(r.account_type, d);
  }
  const cut = (v: Decimal) => v.div(rate).toDecimalPlaces(8, Decimal.ROUND_DOWN);
  const details: Record<string, { amount: string; currency: string; unrealised_pnl?: string; borrowed?: string }> = {};
  let total = new D(0),
    totalPnl = new D(0),
    totalBorrowed = new D(0);
  for (const [type, d] of acc) {
    const amount = cut(d.amount);
    total = total.plus(amount);
    const detail: (typeof details)[string] = { amount: amount.toFixed(), currency: target };
    if (PNL_TYPES.has(type)) {
      const pnl = cut(d.pnl);
      totalPnl = totalPnl.plus(pnl);
      detail.unrealised_pnl = pnl.toFixed();
    }
    if (BORROW_TYPES.has(type)) {
      const b = cut(d.borrowed);
      totalBorrowed = totalBorrowed.plus(b);
      detail.borrowed = b.toFixed();
    }
    details[type] = detail;
  }
  return {
    total: { amount: total.toFixed(), currency: target, unrealised_pnl: totalPnl.toFixed(), borrowed: totalBorrowed.toFixed() },
    details,
  };
}
