import { decimalPlaces, Dec, fmt, isDecimalString } from '../money.ts';
import type { CurrencyPair } from './orders.ts';

// A pair's rules (GET /spot/currency_pairs: minimum amounts, precision), checked before an order is
// drafted, so that the operator reads what to change instead of an exchange refusal. The exchange
// checks again; these checks only spare a round trip and a signature.

export interface OrderDraft {
  side: 'buy' | 'sell';
  type: 'limit' | 'market';
  amount: string;
  price?: string;
}

export interface OrderProblem {
  field: 'amount' | 'price';
  message: string;
}

function decimalProblem(v: string, name: string): string | null {
  if (!isDecimalString(v) || v.startsWith('-')) return `${name} must be a plain decimal number such as 0.5`;
  if (new Dec(v).lte(0)) return `${name} must be above 0`;
  return null;
}

/** Every problem of an order against its pair's rules; empty when it may be drafted. */
export function orderProblems(o: OrderDraft, pair: CurrencyPair): OrderProblem[] {
  const out: OrderProblem[] = [];
  if (pair.trade_status !== 'tradable') out.push({ field: 'amount', message: `${pair.id} is not tradable now (${pair.trade_status})` });
  const quoteBuy = o.type === 'market' && o.side === 'buy';
  const amountBad = decimalProblem(o.amount, 'the amount');
  if (amountBad) out.push({ field: 'amount', message: amountBad });
  else {
    // A market buy spends quote currency: its amount has the price's precision (the live service's rule).
    const places = quoteBuy ? pair.precision : pair.amount_precision;
    if (decimalPlaces(o.amount) > places) {
      out.push({ field: 'amount', message: `${pair.id} takes amounts with at most ${places} decimal places` });
    }
    const min = quoteBuy ? pair.min_quote_amount : pair.min_base_amount;
    if (min && isDecimalString(min) && new Dec(o.amount).lt(min)) {
      out.push({ field: 'amount', message: `the amount must be at least ${min} ${quoteBuy ? pair.quote : pair.base}` });
    }
  }
  if (o.type === 'market') return out;
  const price = o.price ?? '';
  const priceBad = decimalProblem(price, 'the price');
  if (priceBad) {
    out.push({ field: 'price', message: priceBad });
    return out;
  }
  if (decimalPlaces(price) > pair.precision)
    out.push({ field: 'price', message: `${pair.id} takes prices with at most ${pair.precision} decimal places` });
  if (!amountBad) {
    const total = new Dec(o.amount).mul(price);
    if (pair.min_quote_amount && isDecimalString(pair.min_quote_amount) && total.lt(pair.min_quote_amount)) {
      out.push({
        field: 'amount',
        message: `price × amount is ${fmt(total)} ${pair.quote}; it must be at least ${pair.min_quote_amount} ${pair.quote}`,
      });
    }
    if (pair.max_quote_amount && isDecimalString(pair.max_quote_amount) && total.gt(pair.max_quote_amount)) {
      out.push({ field: 'amount', message: `price × amount must be at most ${pair.max_quote_amount} ${pair.quote}` });
    }
  }
  return out;
}

export interface CostEstimate {
  /** What the order spends: quote for a buy, base for a sell. */
  spend: string;
  spendCurrency: string;
  /** What it receives before the fee. */
  receive: string;
  receiveCurrency: string;
  /** The taker fee at the pair's rate, in the currency received (an upper bound: a maker may pay less). */
  fee: string;
  /** The price the estimate used (the limit price; for a market order the best price on the other side). */
  atPrice: string | null;
}

/**
 * The review step's estimate. A market order is priced at the best opposite price of the book; it may
 * fill deeper, so the figure is labelled an estimate. Null when a market order has no price to go on.
 */
export function estimateCost(o: OrderDraft, pair: CurrencyPair, bestAsk: string | null, bestBid: string | null): CostEstimate | null {
  const px = o.type === 'limit' ? (o.price ?? null) : o.side === 'buy' ? bestAsk : bestBid;
  if (!px || !isDecimalString(px) || new Dec(px).lte(0) || !isDecimalString(o.amount)) return null;
  const rate = new Dec(pair.fee).div(100);
  const amount = new Dec(o.amount);
  if (o.side === 'buy') {
    const base = o.type === 'market' ? amount.div(px) : amount;
    const spend = o.type === 'market' ? amount : amount.mul(px);
    return {
      spend: fmt(spend),
      spendCurrency: pair.quote,
      receive: fmt(base, pair.amount_precision),
      receiveCurrency: pair.base,
      fee: fmt(base.mul(rate), 8),
      atPrice: px,
    };
  }
  const quote = amount.mul(px);
  return {
    spend: fmt(amount),
    spendCurrency: pair.base,
    receive: fmt(quote, pair.precision),
    receiveCurrency: pair.quote,
    fee: fmt(quote.mul(rate), 8),
    atPrice: px,
  };
}
