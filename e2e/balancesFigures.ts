import Decimal from 'decimal.js';
import { sandboxGet } from './sandboxApi.ts';

// The sub-account figures as the test computes them from the Sandbox's own answers (read with the
// test's signer), by the rules the README states: spot available + locked; isolated margin and cross
// margin net of borrowed and interest; futures total + unrealised pnl per settlement currency; each
// valued at the spot ticker's last price (direct, inverse or through USDT) and cut to 8 decimals.

const D = Decimal.clone({ precision: 40 });
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- the Sandbox's balance rows, read field by field as the desk's figures are checked
type W = Record<string, any>;
export const KINDS = ['spot', 'margin', 'futures_usdt', 'futures_btc', 'futures_usd', 'cross_margin'] as const;
export type Figures = Map<string, Record<(typeof KINDS)[number], string>>;

function pricer(tickers: Array<{ currency_pair: string; last: string }>) {
  const last = new Map(tickers.filter((t) => new D(t.last).gt(0)).map((t) => [t.currency_pair, new D(t.last)]));
  const direct = (c: string, q: string): Decimal | null =>
    c === q ? new D(1) : (last.get(`${c}_${q}`) ?? (last.has(`${q}_${c}`) ? new D(1).div(last.get(`${q}_${c}`)!) : null));
  return (c: string, q: string) =>
    direct(c, q) ?? (direct(c, 'USDT') && direct('USDT', q) ? direct(c, 'USDT')!.times(direct('USDT', q)!) : null);
}

export async function sandboxFigures(credentialsPath: string, quote = 'USDT'): Promise<Figures> {
  const spot: W[] = [];
  for (let page = 1; ; page++) {
    const rows = await sandboxGet<W[]>(credentialsPath, '/wallet/sub_account_balances', `limit=100&page=${page}`);
    spot.push(...rows);
    if (rows.length < 100) break;
  }
  const [margin, futures, cross, tickers] = await Promise.all([
    sandboxGet<W[]>(credentialsPath, '/wallet/sub_account_margin_balances'),
    sandboxGet<W[]>(credentialsPath, '/wallet/sub_account_futures_balances'),
    sandboxGet<W[]>(credentialsPath, '/wallet/sub_account_cross_margin_balances'),
    sandboxGet<Array<{ currency_pair: string; last: string }>>(credentialsPath, '/spot/tickers'),
  ]);
  const price = pricer(tickers);
  const value = (held: Array<[string, Decimal]>) =>
    held
      .reduce((s, [c, a]) => (a.isZero() || !price(c, quote) ? s : s.plus(a.times(price(c, quote)!))), new D(0))
      .toDecimalPlaces(8, Decimal.ROUND_DOWN)
      .toFixed();
  const out: Figures = new Map();
  const row = (uid: string) => {
    if (!out.has(uid)) out.set(uid, Object.fromEntries(KINDS.map((k) => [k, '0'])) as Record<(typeof KINDS)[number], string>);
    return out.get(uid)!;
  };
  for (const s of spot) row(s.uid).spot = value(Object.keys(s.available).map((c) => [c, new D(s.available[c]).plus(s.locking?.[c] ?? 0)]));
  for (const m of margin)
    row(m.uid).margin = value(
      (m.available as W[]).flatMap((p) =>
        [p.base, p.quote].map(
          (x: W) => [x.currency, new D(x.available).plus(x.locked).minus(x.borrowed).minus(x.interest)] as [string, Decimal],
        ),
      ),
    );
  for (const f of futures) {
    for (const [settle, a] of Object.entries(f.available as Record<string, W>)) {
      row(f.uid)[`futures_${settle}` as 'futures_usdt'] = value([
        [String(a.currency).toUpperCase(), new D(a.total).plus(a.unrealised_pnl)],
      ]);
    }
  }
  for (const c of cross) {
    if (c.available.user_id === 0) continue;
    row(c.uid).cross_margin = value(
      Object.entries(c.available.balances as Record<string, W>).map(([cur, b]) => [
        cur,
        new D(b.available).plus(b.freeze).minus(b.borrowed).minus(b.interest),
      ]),
    );
  }
  return out;
}

/** The main account's spot value from GET /spot/accounts, by the same rules. */
export async function mainSpotValue(credentialsPath: string, quote = 'USDT'): Promise<string> {
  const [rows, tickers] = await Promise.all([
    sandboxGet<Array<{ currency: string; available: string; locked: string }>>(credentialsPath, '/spot/accounts'),
    sandboxGet<Array<{ currency_pair: string; last: string }>>(credentialsPath, '/spot/tickers'),
  ]);
  const price = pricer(tickers);
  return rows
    .reduce((s, r) => {
      const a = new D(r.available).plus(r.locked);
      const p = price(r.currency, quote);
      return a.isZero() || !p ? s : s.plus(a.times(p));
    }, new D(0))
    .toDecimalPlaces(8, Decimal.ROUND_DOWN)
    .toFixed();
}
