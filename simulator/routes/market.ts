import { Dec, fmt } from '../../shared/money.ts';
import { stmt } from '../db.ts';
import { ApiError } from '../errors.ts';
import { chainsOf, listCurrencies, priceOf } from '../ledger/catalog.ts';
import { fromScaled } from '../market/scaled.ts';
import { MAX_QUOTE_AMOUNT, marketOf } from '../market/service.ts';
import { tickerWindowFields, window24h } from '../market/window24h.ts';
import type { RouteDef } from '../server.ts';
import { optional } from './params.ts';

// §4.4 public spot reads. Shapes follow the live service's documentation (simulator/README.md (endpoints section)).

interface PairRow {
  id: string;
  base: string;
  quote: string;
  amount_precision: number;
  precision: number;
  min_base: string;
  min_quote: string;
}

function pairs(db: Parameters<typeof listCurrencies>[0]): PairRow[] {
  return stmt(db, 'SELECT * FROM currency_pairs ORDER BY id').all() as PairRow[];
}

function currencyNames(db: Parameters<typeof listCurrencies>[0]): Map<string, string> {
  return new Map(listCurrencies(db).map((c) => [c.currency, c.name]));
}

/** The live service's CurrencyPair record. */
function pairWire(p: PairRow, names: Map<string, string>) {
  return {
    id: p.id,
    base: p.base,
    base_name: names.get(p.base) ?? p.base,
    quote: p.quote,
    quote_name: names.get(p.quote) ?? p.quote,
    fee: '0.2',
    min_base_amount: p.min_base,
    min_quote_amount: p.min_quote,
    max_base_amount: '',
    max_quote_amount: MAX_QUOTE_AMOUNT,
    amount_precision: p.amount_precision,
    precision: p.precision,
    trade_status: 'tradable',
    sell_start: 1516378650,
    buy_start: 1516378650,
    delisting_time: 0,
    type: 'normal',
    trade_url: '',
    st_tag: false,
  };
}

export function marketRoutes(): RouteDef[] {
  return [
    {
      method: 'GET',
      path: '/spot/time',
      group: 'public',
      handler: ({ nowSec }) => ({ server_time: Math.floor(nowSec * 1000) }),
    },
    {
      method: 'GET',
      path: '/spot/currencies',
      group: 'public',
      handler: ({ db }) =>
        listCurrencies(db).map((c) => {
          const chains = chainsOf(db, c.currency);
          return {
            currency: c.currency,
            name: c.name,
            delisted: false,
            withdraw_disabled: chains.every((x) => x.is_withdraw_disabled === 1),
            withdraw_delayed: false,
            deposit_disabled: chains.every((x) => x.is_deposit_disabled === 1),
            trade_disabled: false,
            fixed_rate: '',
            chain: chains[0]?.chain ?? '',
            is_private: false,
            chains: chains.map((x) => ({
              name: x.chain,
              addr: x.contract_address,
              withdraw_disabled: x.is_withdraw_disabled === 1,
              withdraw_delayed: false,
              deposit_disabled: x.is_deposit_disabled === 1,
            })),
          };
        }),
    },
    {
      method: 'GET',
      path: '/spot/currency_pairs',
      group: 'public',
      handler: ({ db }) => {
        const names = currencyNames(db);
        return pairs(db).map((p) => pairWire(p, names));
      },
    },
    {
      // One pair, as the live service answers it; an unknown pair is "not found" under the spec's
      // §7 spot label for it (the status per label is the Sandbox's choice: errors.ts).
      method: 'GET',
      path: '/spot/currency_pairs/:currency_pair',
      group: 'public',
      handler: ({ db, params }) => {
        const id = params.currency_pair ?? '';
        const p = stmt(db, 'SELECT * FROM currency_pairs WHERE id = ?').get(id) as PairRow | undefined;
        if (!p) throw new ApiError('INVALID_CURRENCY_PAIR', `unknown currency pair ${id}`, 404);
        return pairWire(p, currencyNames(db));
      },
    },
    {
      // last is the pair's last trade (the valuation price until a trade happens); bid and ask are the book's;
      // volumes, high and low cover the trades of the last 24 hours (market/window24h.ts).
      method: 'GET',
      path: '/spot/tickers',
      group: 'public',
      handler: ({ db, query, nowSec }) => {
        const only = optional(query, 'currency_pair');
        const list = pairs(db).filter((p) => only === undefined || p.id === only);
        if (only !== undefined && list.length === 0) throw new ApiError('INVALID_CURRENCY_PAIR', `unknown currency pair ${only}`);
        const m = marketOf(db);
        return list.map((p) => {
          const traded = stmt(db, 'SELECT price FROM pair_last WHERE pair = ?').get(p.id) as { price: string } | undefined;
          const last = traded
            ? new Dec(traded.price)
            : new Dec(priceOf(db, p.base) ?? '0').div(priceOf(db, p.quote) ?? '1').toDecimalPlaces(p.precision);
          const [bid] = m.book(p.id).depth('buy', 1);
          const [ask] = m.book(p.id).depth('sell', 1);
          return {
            currency_pair: p.id,
            last: fmt(last),
            lowest_ask: ask ? fromScaled(ask.price, p.precision) : '',
            lowest_size: ask ? fromScaled(ask.lots, p.amount_precision) : '',
            highest_bid: bid ? fromScaled(bid.price, p.precision) : '',
            highest_size: bid ? fromScaled(bid.lots, p.amount_precision) : '',
            change_percentage: '0',
            change_utc0: '0',
            change_utc8: '0',
            ...tickerWindowFields(window24h(db, p.id, Math.floor(nowSec * 1000)), fmt(last)),
          };
        });
      },
    },
  ];
}
