// Apart from shared/balances.ts (its schemas): the Overview and the matrix use these in their first paint.

/** §2.8 perpetual futures settlement currencies the desk shows as columns. */
export const FUTURES_SETTLES = ['usdt', 'btc', 'usd'] as const;
export const ACCOUNT_KINDS = ['spot', 'margin', 'futures_usdt', 'futures_btc', 'futures_usd', 'cross_margin'] as const;
export type AccountKind = (typeof ACCOUNT_KINDS)[number];
export const ACCOUNT_KIND_NAMES: Record<AccountKind, string> = {
  spot: 'Spot',
  margin: 'Isolated margin',
  futures_usdt: 'Futures USDT',
  futures_btc: 'Futures BTC',
  futures_usd: 'Futures USD',
  cross_margin: 'Cross margin',
};

/** Currencies a matrix can be valued in: each is priced from spot tickers. */
export const QUOTE_CURRENCIES = ['USDT', 'BTC', 'ETH', 'USDC'] as const;
export const MATRIX_SORT_KEYS = ['uid', 'name', ...ACCOUNT_KINDS, 'total', 'cross_risk'] as const;
