import Decimal from 'decimal.js';
import { Dec, fmt, isDecimalString } from '../../../shared/money.ts';

// Prices from spot tickers (`last`): a currency is valued directly against the quote, through the
// inverse pair, or through USDT. A currency nothing prices is reported, never guessed.

export interface Ticker {
  currency_pair: string;
  last: string;
}

export class Prices {
  private readonly last = new Map<string, Decimal>();
  /** A matrix asks the same few prices thousands of times; divisions at 40 digits are worth keeping. */
  private readonly memo = new Map<string, Decimal | null>();

  constructor(tickers: Ticker[]) {
    for (const t of tickers) {
      if (typeof t?.currency_pair === 'string' && typeof t.last === 'string' && isDecimalString(t.last) && new Dec(t.last).gt(0)) {
        this.last.set(t.currency_pair.toUpperCase(), new Dec(t.last));
      }
    }
  }

  private direct(c: string, q: string): Decimal | null {
    if (c === q) return new Dec(1);
    const d = this.last.get(`${c}_${q}`);
    if (d) return d;
    const inv = this.last.get(`${q}_${c}`);
    return inv ? new Dec(1).div(inv) : null;
  }

  price(currency: string, quote: string): Decimal | null {
    const c = currency.toUpperCase(),
      q = quote.toUpperCase();
    const key = `${c}/${q}`;
    if (this.memo.has(key)) return this.memo.get(key)!;
    let p = this.direct(c, q);
    if (!p) {
      const a = this.direct(c, 'USDT'),
        b = this.direct('USDT', q);
      p = a && b ? a.times(b) : null;
    }
    this.memo.set(key, p);
    return p;
  }
}

/** Sums amounts per currency into a value in `quote`, cut to 8 decimals; unpriced currencies are listed apart. */
export function valueOf(amounts: Record<string, Decimal>, prices: Prices, quote: string): { value: string; unpriced: string[] } {
  let v = new Dec(0);
  const unpriced: string[] = [];
  for (const [c, a] of Object.entries(amounts)) {
    if (a.isZero()) continue;
    const p = prices.price(c, quote);
    if (p === null) unpriced.push(c);
    else v = v.plus(a.times(p));
  }
  return { value: fmt(v, 8), unpriced };
}
