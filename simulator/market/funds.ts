import type Decimal from 'decimal.js';
import { Dec, fmt } from '../../shared/money.ts';
import { stmt, type DB } from '../db.ts';
import { ApiError } from '../errors.ts';
import type { Pocket } from '../ledger.ts';

// Money of orders in the Sandbox's ledger (decimal strings). An order locks what it may spend (moves it
// from available to locked); a fill moves locked money of one side to the available money of the other,
// less the fee, which goes to the house account; leaving the book unlocks the rest. Each currency's sum
// over all accounts (available + locked) is unchanged by all of it. Runs inside the order's transaction.

interface Row {
  available: string;
  locked: string;
}

/** A pocket without a row yet holds nothing. */
const NO_ROW: Row = Object.freeze({ available: '0', locked: '0' });

function read(db: DB, p: Pocket, currency: string): Row {
  return (
    (stmt(db, 'SELECT available, locked FROM balances WHERE uid = ? AND account_type = ? AND sub_key = ? AND currency = ?').get(
      p.uid,
      p.type,
      p.subKey,
      currency,
    ) as Row | undefined) ?? NO_ROW
  );
}

function write(db: DB, p: Pocket, currency: string, available: Decimal, locked: Decimal, exists: boolean): void {
  // A row read in this transaction is updated in place: an upsert first tries the insert, fails on the
  // key and only then updates, which costs an order's busiest statements about twice as much.
  if (exists) {
    stmt(db, 'UPDATE balances SET available = ?, locked = ? WHERE uid = ? AND account_type = ? AND sub_key = ? AND currency = ?').run(
      fmt(available),
      fmt(locked),
      p.uid,
      p.type,
      p.subKey,
      currency,
    );
    return;
  }
  stmt(
    db,
    `INSERT INTO balances (uid, account_type, sub_key, currency, available, locked) VALUES (?, ?, ?, ?, ?, ?)
    ON CONFLICT(uid, account_type, sub_key, currency) DO UPDATE SET available = excluded.available, locked = excluded.locked`,
  ).run(p.uid, p.type, p.subKey, currency, fmt(available), fmt(locked));
}

interface Delta {
  pocket: Pocket;
  currency: string;
  available: Decimal;
  locked: Decimal;
  row?: Row;
}

/** Balance changes of one order's fills, summed per pocket and currency, then written once each. */
export class Deltas {
  private readonly byKey = new Map<string, Delta>();

  private entry(pocket: Pocket, currency: string): Delta {
    const key = `${pocket.uid}\u0000${pocket.type}\u0000${pocket.subKey}\u0000${currency}`;
    let d = this.byKey.get(key);
    if (!d) this.byKey.set(key, (d = { pocket, currency, available: new Dec(0), locked: new Dec(0) }));
    return d;
  }

  add(pocket: Pocket, currency: string, available: Decimal | null, locked: Decimal | null): void {
    const d = this.entry(pocket, currency);
    if (available) d.available = d.available.plus(available);
    if (locked) d.locked = d.locked.plus(locked);
  }

  /**
   * Locks `amount` of the pocket's available money (first change of this batch for that pocket);
   * BALANCE_NOT_ENOUGH when short, before anything is written.
   */
  lock(db: DB, pocket: Pocket, currency: string, amount: Decimal): void {
    const d = this.entry(pocket, currency);
    d.row = read(db, pocket, currency);
    const avail = new Dec(d.row.available).plus(d.available);
    if (avail.lt(amount)) {
      throw new ApiError(
        'BALANCE_NOT_ENOUGH',
        `the ${pocket.type} account holds ${fmt(avail)} ${currency} available; the order needs ${fmt(amount)}`,
      );
    }
    d.available = d.available.minus(amount);
    d.locked = d.locked.plus(amount);
  }

  /**
   * Writes every change; a balance that would go below zero is a bug of the market (its locks cover
   * every fill), so it throws and the transaction rolls back. The journal of these moves is spot_fills
   * (each side's amount, price and fee) and spot_orders (what each order locks), not ledger_entries:
   * one fill would otherwise cost four more rows, and orders are the Sandbox's busiest writes.
   */
  apply(db: DB): void {
    for (const d of this.byKey.values()) {
      if (d.available.isZero() && d.locked.isZero()) continue;
      const row = d.row ?? read(db, d.pocket, d.currency);
      const available = new Dec(row.available).plus(d.available);
      const locked = new Dec(row.locked).plus(d.locked);
      if (available.isNegative() || locked.isNegative()) {
        throw new Error(`market settlement would leave ${d.pocket.uid} ${d.pocket.type} ${d.currency} at ${fmt(available)}/${fmt(locked)}`);
      }
      write(db, d.pocket, d.currency, available, locked, row !== NO_ROW);
    }
    this.byKey.clear();
  }
}
