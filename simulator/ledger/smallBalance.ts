import Decimal from 'decimal.js';
import { Dec, fmt } from '../../shared/money.ts';
import { stmt, type DB } from '../db.ts';
import { ApiError } from '../errors.ts';
import { applyMoves, spot, HOUSE_UID } from '../ledger.ts';
import { priceOf } from './catalog.ts';

// Small balances (§2.9, §4.1): spot holdings worth less than SMALL_USDT are convertible to GT. The
// house account takes the dust in and pays the GT out, so every currency's sum stays whole.

export const SMALL_USDT = new Dec(5);

interface Item {
  currency: string;
  available: Decimal;
  btc: Decimal;
  gt: Decimal;
}

function smallItems(db: DB, uid: string): Item[] {
  const rows = stmt(
    db,
    "SELECT currency, available FROM balances WHERE uid = ? AND account_type = 'spot' AND sub_key = '' ORDER BY currency",
  ).all(uid) as { currency: string; available: string }[];
  const btc = new Dec(priceOf(db, 'BTC')!);
  const gt = new Dec(priceOf(db, 'GT')!);
  const out: Item[] = [];
  for (const r of rows) {
    const avail = new Dec(r.available);
    const price = priceOf(db, r.currency);
    if (r.currency === 'GT' || !price || avail.lte(0)) continue;
    const usdt = avail.times(price);
    if (usdt.gte(SMALL_USDT)) continue;
    out.push({
      currency: r.currency,
      available: avail,
      btc: usdt.div(btc).toDecimalPlaces(8, Decimal.ROUND_DOWN),
      gt: usdt.div(gt).toDecimalPlaces(8, Decimal.ROUND_DOWN),
    });
  }
  return out;
}

export function listSmallBalances(db: DB, uid: string) {
  return smallItems(db, uid).map((i) => ({
    currency: i.currency,
    available_balance: fmt(i.available),
    estimated_as_btc: fmt(i.btc),
    convertible_to_gt: fmt(i.gt),
  }));
}

/** Converts the named small balances (or all of them) to GT in one transaction. */
export function convertSmallBalances(db: DB, uid: string, currencies: string[] | 'all', nowSec: number): void {
  db.transaction(() => {
    const items = smallItems(db, uid);
    const chosen =
      currencies === 'all'
        ? items
        : currencies.map((c) => {
            const it = items.find((i) => i.currency === c);
            if (!it) throw new ApiError('INVALID_PARAM_VALUE', `${c} is not a small balance of this account`);
            return it;
          });
    for (const it of chosen) {
      const info = stmt(db, 'INSERT INTO small_balance_history (uid, currency, amount, gt_amount, create_time) VALUES (?, ?, ?, ?, ?)').run(
        uid,
        it.currency,
        fmt(it.available),
        fmt(it.gt),
        Math.floor(nowSec),
      );
      const ref = `small${info.lastInsertRowid}`;
      applyMoves(
        db,
        [
          { pocket: spot(uid), currency: it.currency, delta: it.available.neg() },
          { pocket: spot(HOUSE_UID), currency: it.currency, delta: it.available },
          { pocket: spot(HOUSE_UID), currency: 'GT', delta: it.gt.neg() },
          { pocket: spot(uid), currency: 'GT', delta: it.gt },
        ],
        'small_balance',
        ref,
        nowSec,
      );
    }
  })();
}
