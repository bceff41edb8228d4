import { Dec, fmt } from '../../shared/money.ts';
import { heldIn, stmt, type DB } from '../db.ts';
import { ApiError } from '../errors.ts';
import type { Pocket } from '../ledger.ts';
import { addDecimalText } from './decimalAdd.ts';
import { bigText, pow10 } from './scaled.ts';

// Money of orders in the Sandbox's ledger (decimal strings). An order locks what it may spend (moves it
// from available to locked); a fill moves locked money of one side to the available money of the other,
// less the fee, which goes to the house account; leaving the book unlocks the rest. Each currency's sum
// over all accounts (available + locked) is unchanged by all of it.
//
// Orders share a commit (inBatch in db.ts), and so do their balance changes: the first order of a batch
// that touches a balance reads it once; each order's changes are checked and added in memory at the end
// of its savepoint; the batch's sum is written with one UPDATE per balance (the SQL function ledger_add:
// exact sums of the stored strings) when the batch commits, or before anything else uses the store
// (writeHeld in db.ts). Under load a batch holds dozens of orders of the same few accounts, and an
// UPDATE per balance per order cost an order more than the rest of its statements.

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

/** Adds to a balance row; false when the pocket has no row for the currency. */
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

/** A stored decimal string as an integer at its own places. */
function scaledText(s: string): { n: bigint; places: number } {
  const plain = /^-?\d+(\.\d+)?$/.test(s) ? s : new Dec(s).toFixed();
  const dot = plain.indexOf('.');
  if (dot < 0) return { n: BigInt(plain), places: 0 };
  const neg = plain.charCodeAt(0) === 45;
  const n = BigInt(plain.slice(neg ? 1 : 0, dot) + plain.slice(dot + 1));
  return { n: neg ? -n : n, places: plain.length - dot - 1 };
}

/** Integers at `places` decimal places. */
interface Amounts {
  available: bigint;
  locked: bigint;
  places: number;
}

/** Moves `a` to at least `places` decimal places. */
function widen(a: Amounts, places: number): void {
  if (places <= a.places) return;
  const up = pow10(places - a.places);
  a.available *= up;
  a.locked *= up;
  a.places = places;
}

/** One balance as the open batch sees it: the stored row plus what the batch's orders added (`added`). */
interface Held extends Amounts {
  pocket: Pocket;
  currency: string;
  /** Whether the row exists in the store (a missing one is 0, and inserted when written). */
  stored: boolean;
  added: Amounts;
}

/** The balances that the open batch of one store has touched, by pocket and currency. */
class HeldBalances {
  private readonly byKey = new Map<string, Held>();

  constructor(private readonly db: DB) {}

  get(key: string, pocket: Pocket, currency: string): Held {
    let h = this.byKey.get(key);
    if (h) return h;
    const row = stmt(this.db, `SELECT available, locked FROM balances ${WHERE}`).get(pocket.uid, pocket.type, pocket.subKey, currency) as
      { available: string; locked: string } | undefined;
    const a = scaledText(row?.available ?? '0'),
      l = scaledText(row?.locked ?? '0');
    const places = Math.max(a.places, l.places);
    h = {
      pocket,
      currency,
      stored: row !== undefined,
      available: a.n * pow10(places - a.places),
      locked: l.n * pow10(places - l.places),
      places,
      added: { available: 0n, locked: 0n, places: 0 },
    };
    this.byKey.set(key, h);
    return h;
  }

  /** Writes what the batch added: one statement per balance. */
  write(): void {
    for (const h of this.byKey.values()) {
      const { available: a, locked: l, places } = h.added;
      if (a === 0n && l === 0n) continue;
      const available = a === 0n ? null : bigText(a, places);
      const locked = l === 0n ? null : bigText(l, places);
      const { uid, type, subKey } = h.pocket;
      if (h.stored) {
        if (!addTo(this.db, h.pocket, h.currency, available, locked))
          throw new Error(`the balance of ${uid} ${type} ${h.currency} went away during a batch of orders`);
      } else {
        stmt(this.db, 'INSERT INTO balances (uid, account_type, sub_key, currency, available, locked) VALUES (?, ?, ?, ?, ?, ?)').run(
          uid,
          type,
          subKey,
          h.currency,
          available ?? '0',
          locked ?? '0',
        );
      }
    }
    this.byKey.clear();
  }
}

const heldOf = new WeakMap<DB, HeldBalances>();

/** The open batch's balances of this store; written when the batch commits or something else uses the store. */
function held(db: DB): HeldBalances {
  return heldIn(heldOf, db, (d) => new HeldBalances(d));
}

function keyOf(pocket: Pocket, currency: string): string {
  return `${pocket.uid}\u0000${pocket.type}\u0000${pocket.subKey}\u0000${currency}`;
}

interface Delta extends Amounts {
  pocket: Pocket;
  currency: string;
}

/**
 * Balance changes of one order (or cancellation), summed per pocket and currency. They join the batch's
 * balances (apply) at the end of its savepoint, so an order that fails leaves nothing behind.
 */
export class Deltas {
  private readonly byKey = new Map<string, Delta>();

  /** Adds amounts given at `places` decimal places. */
  add(pocket: Pocket, currency: string, available: bigint, locked: bigint, places: number): void {
    const key = keyOf(pocket, currency);
    const d = this.byKey.get(key);
    if (!d) {
      this.byKey.set(key, { pocket, currency, available, locked, places });
      return;
    }
    widen(d, places);
    if (places < d.places) {
      const up = pow10(d.places - places);
      available *= up;
      locked *= up;
    }
    d.available += available;
    d.locked += locked;
  }

  /**
   * Locks `amount` (at `places`) of the pocket's available money, the first change of an order;
   * BALANCE_NOT_ENOUGH when the balance as the batch sees it is short.
   */
  lock(db: DB, pocket: Pocket, currency: string, amount: bigint, places: number): void {
    const h = held(db).get(keyOf(pocket, currency), pocket, currency);
    const at = Math.max(h.places, places);
    const have = h.available * pow10(at - h.places);
    if (have < amount * pow10(at - places)) {
      throw new ApiError(
        'BALANCE_NOT_ENOUGH',
        `the ${pocket.type} account holds ${fmt(new Dec(bigText(have, at)))} ${currency} available; the order needs ${bigText(amount, places)}`,
      );
    }
    this.add(pocket, currency, -amount, amount, places);
  }

  /**
   * Adds every change to the batch's balances, the last step of an order's savepoint. A balance that would
   * go below zero is a bug of the market (its locks cover every fill), so it throws and the savepoint
   * rolls back with nothing added. The journal of these moves is spot_fills (each side's amount, price
   * and fee) and spot_orders (what each order locks), not ledger_entries: one fill would otherwise cost
   * four more rows, and orders are the Sandbox's busiest writes.
   */
  apply(db: DB): void {
    const balances = held(db);
    const touched: [Held, Delta][] = [];
    for (const [key, d] of this.byKey) {
      if (d.available === 0n && d.locked === 0n) continue;
      const h = balances.get(key, d.pocket, d.currency);
      widen(h, d.places);
      widen(d, h.places);
      if (h.available + d.available < 0n || h.locked + d.locked < 0n) {
        const { uid, type } = d.pocket;
        throw new Error(
          `market settlement would take ${uid} ${type} ${d.currency} below zero (${bigText(d.available, d.places)}/${bigText(d.locked, d.places)})`,
        );
      }
      touched.push([h, d]);
    }
    for (const [h, d] of touched) {
      h.available += d.available;
      h.locked += d.locked;
      widen(h.added, d.places);
      h.added.available += d.available * pow10(h.added.places - d.places);
      h.added.locked += d.locked * pow10(h.added.places - d.places);
    }
    this.byKey.clear();
  }
}
