import { Dec, fmt } from '../../shared/money.ts';
import { stmt, type DB } from '../db.ts';
import { ApiError } from '../errors.ts';
import type { Pocket } from '../ledger.ts';
import { addDecimalText } from './decimalAdd.ts';
import { bigText, pow10 } from './scaled.ts';

// Money of orders in the Sandbox's ledger (decimal strings). An order locks what it may spend (moves it
// from available to locked); a fill moves locked money of one side to the available money of the other,
// less the fee, which goes to the house account; leaving the book unlocks the rest. Each currency's sum
// over all accounts (available + locked) is unchanged by all of it. Runs inside the order's transaction.
//
// Each change is one UPDATE that adds to the stored strings in place (the SQL function ledger_add), so
// an order never reads a balance back: reading and rewriting each row cost an order more than its fills.

/** Thrown by ledger_add when a balance would go below zero; the statement and its change are undone. */
class BelowZero extends Error {}

const ready = new WeakSet<DB>();

function withAdd(db: DB): DB {
  if (!ready.has(db)) {
    db.function('ledger_add', { deterministic: true }, (a: unknown, b: unknown) => {
      const sum = addDecimalText(String(a), String(b));
      if (sum.charCodeAt(0) === 45) throw new BelowZero();
      return sum;
    });
    ready.add(db);
  }
  return db;
}

const WHERE = 'WHERE uid = ? AND account_type = ? AND sub_key = ? AND currency = ?';
const BOTH = `UPDATE balances SET available = ledger_add(available, ?), locked = ledger_add(locked, ?) ${WHERE}`;
const AVAILABLE = `UPDATE balances SET available = ledger_add(available, ?) ${WHERE}`;
const LOCKED = `UPDATE balances SET locked = ledger_add(locked, ?) ${WHERE}`;

/** Adds to a balance row; false when the pocket has no row for the currency. BelowZero when it would go negative. */
function addTo(db: DB, p: Pocket, currency: string, available: string | null, locked: string | null): boolean {
  withAdd(db);
  const r =
    available !== null && locked !== null
      ? stmt(db, BOTH).run(available, locked, p.uid, p.type, p.subKey, currency)
      : available !== null
        ? stmt(db, AVAILABLE).run(available, p.uid, p.type, p.subKey, currency)
        : stmt(db, LOCKED).run(locked, p.uid, p.type, p.subKey, currency);
  return r.changes > 0;
}

function availableOf(db: DB, p: Pocket, currency: string): string {
  const row = stmt(db, `SELECT available FROM balances ${WHERE}`).get(p.uid, p.type, p.subKey, currency) as
    { available: string } | undefined;
  return fmt(new Dec(row?.available ?? '0'));
}

interface Delta {
  pocket: Pocket;
  currency: string;
  /** Integers at `places` decimal places. */
  available: bigint;
  locked: bigint;
  places: number;
}

/** Balance changes of one order's fills, summed per pocket and currency, then written once each. */
export class Deltas {
  private readonly byKey = new Map<string, Delta>();

  /** Adds amounts given at `places` decimal places. */
  add(pocket: Pocket, currency: string, available: bigint, locked: bigint, places: number): void {
    const key = `${pocket.uid}\u0000${pocket.type}\u0000${pocket.subKey}\u0000${currency}`;
    const d = this.byKey.get(key);
    if (!d) {
      this.byKey.set(key, { pocket, currency, available, locked, places });
      return;
    }
    if (places > d.places) {
      const up = pow10(places - d.places);
      d.available *= up;
      d.locked *= up;
      d.places = places;
    } else if (places < d.places) {
      const up = pow10(d.places - places);
      available *= up;
      locked *= up;
    }
    d.available += available;
    d.locked += locked;
  }

  /**
   * Locks `amount` (at `places`) of the pocket's available money at once; BALANCE_NOT_ENOUGH when short,
   * with nothing written.
   */
  lock(db: DB, pocket: Pocket, currency: string, amount: bigint, places: number): void {
    const text = bigText(amount, places);
    let done = false;
    try {
      done = addTo(db, pocket, currency, `-${text}`, text);
    } catch (e) {
      if (!(e instanceof BelowZero)) throw e;
    }
    if (!done) {
      throw new ApiError(
        'BALANCE_NOT_ENOUGH',
        `the ${pocket.type} account holds ${availableOf(db, pocket, currency)} ${currency} available; the order needs ${text}`,
      );
    }
  }

  /**
   * Writes every change; a balance that would go below zero is a bug of the market (its locks cover
   * every fill), so it throws and the transaction rolls back. The journal of these moves is spot_fills
   * (each side's amount, price and fee) and spot_orders (what each order locks), not ledger_entries:
   * one fill would otherwise cost four more rows, and orders are the Sandbox's busiest writes.
   */
  apply(db: DB): void {
    for (const d of this.byKey.values()) {
      if (d.available === 0n && d.locked === 0n) continue;
      const available = d.available === 0n ? null : bigText(d.available, d.places);
      const locked = d.locked === 0n ? null : bigText(d.locked, d.places);
      const { uid, type, subKey } = d.pocket;
      let written: boolean;
      try {
        written = addTo(db, d.pocket, d.currency, available, locked);
        if (!written && (d.available < 0n || d.locked < 0n)) throw new BelowZero();
      } catch (e) {
        if (!(e instanceof BelowZero)) throw e;
        throw new Error(`market settlement would take ${uid} ${type} ${d.currency} below zero (${available ?? '0'}/${locked ?? '0'})`, {
          cause: e,
        });
      }
      if (!written) {
        stmt(db, 'INSERT INTO balances (uid, account_type, sub_key, currency, available, locked) VALUES (?, ?, ?, ?, ?, ?)').run(
          uid,
          type,
          subKey,
          d.currency,
          available ?? '0',
          locked ?? '0',
        );
      }
    }
    this.byKey.clear();
  }
}
