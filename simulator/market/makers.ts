import Decimal from 'decimal.js';
import { Dec, fmt } from '../../shared/money.ts';
import type { DB } from '../db.ts';
import { mulberry32 } from '../../shared/random.ts';
import { fromScaled } from './scaled.ts';

// The demo world's market maker: a house account (uid 2) with resting orders on every pair, a spread
// over many price levels around the valuation price, so that orders placed from the desk fill. Written
// straight into the store while the world is seeded; the market loads them as any open order.

export const MAKER_UID = '2';
const LEVELS = 30;
const ORDERS_PER_LEVEL = 2;
/** Distance between levels, as a fraction of the mid price (5 basis points). */
const STEP = 0.0005;

interface PairRow {
  id: string;
  base: string;
  quote: string;
  amount_precision: number;
  precision: number;
  min_base: string;
  min_quote: string;
}

export function seedMakers(db: DB, nowSec: number): void {
  const rand = mulberry32(1515);
  const prices = new Map(
    (db.prepare('SELECT currency, usdt FROM prices').all() as { currency: string; usdt: string }[]).map((r) => [
      r.currency,
      new Dec(r.usdt),
    ]),
  );
  db.prepare('INSERT OR IGNORE INTO accounts (uid, main_uid, name, locked, created_at) VALUES (?, NULL, ?, 0, ?)').run(
    MAKER_UID,
    'sandbox_market_maker',
    Math.floor(nowSec),
  );
  const insert =
    db.prepare(`INSERT INTO spot_orders (uid, text, pair, type, account, side, amount, price, tif, left_amount, filled_amount, filled_total,
    fee, fee_currency, locked, stp_id, stp_act, status, finish_as, create_ms, update_ms)
    VALUES (?, 't-maker', ?, 'limit', 'spot', ?, ?, ?, 'gtc', ?, '0', '0', '0', ?, ?, 0, '-', 'open', 'open', ?, ?)`);
  const locked = new Map<string, Decimal>();
  const lock = (c: string, d: Decimal) => locked.set(c, (locked.get(c) ?? new Dec(0)).plus(d));
  const ms = Math.floor(nowSec * 1000);
  for (const p of db.prepare('SELECT * FROM currency_pairs ORDER BY id').all() as PairRow[]) {
    const quoteUsdt = prices.get(p.quote)!;
    const mid = prices.get(p.base)!.div(quoteUsdt);
    const midTicks = mid.times(new Dec(10).pow(p.precision)).toDecimalPlaces(0).toNumber();
    const step = Math.max(1, Math.round(midTicks * STEP));
    for (let i = 1; i <= LEVELS; i++) {
      for (const side of ['buy', 'sell'] as const) {
        const ticks = side === 'buy' ? midTicks - i * step : midTicks + i * step;
        if (ticks <= 0) continue;
        const price = new Dec(fromScaled(ticks, p.precision));
        for (let k = 0; k < ORDERS_PER_LEVEL; k++) {
          // Each order is worth 100 to 1,500 USDT, at least the pair's minimums.
          const usdt = 100 + rand() * 1400;
          const baseAmount = new Dec(usdt.toFixed(2)).div(quoteUsdt).div(price);
          const minLots = Decimal.max(new Dec(p.min_base), new Dec(p.min_quote).div(price))
            .times(new Dec(10).pow(p.amount_precision))
            .ceil();
          const lots = Decimal.max(baseAmount.times(new Dec(10).pow(p.amount_precision)).floor(), minLots).toNumber();
          const amount = fromScaled(lots, p.amount_precision);
          const quote = new Dec(fromScaled(lots * ticks, p.precision + p.amount_precision));
          const held = side === 'buy' ? quote : new Dec(amount);
          lock(side === 'buy' ? p.quote : p.base, held);
          insert.run(MAKER_UID, p.id, side, amount, fmt(price), amount, side === 'buy' ? p.base : p.quote, fmt(held), ms, ms);
        }
      }
    }
  }
  // The maker holds what its orders lock, and as much again available.
  const bal = db.prepare(`INSERT INTO balances (uid, account_type, sub_key, currency, available, locked) VALUES (?, 'spot', '', ?, ?, ?)
    ON CONFLICT(uid, account_type, sub_key, currency) DO UPDATE SET available = excluded.available, locked = excluded.locked`);
  for (const [c, d] of locked) bal.run(MAKER_UID, c, fmt(d), fmt(d));
}
