// Apart from shared/api/records.ts (the answers' schemas): the Overview reads the list before its first paint.

/** §4.1 GET /wallet/total_balance: target currencies. */
export const VALUATION_CURRENCIES = ['BTC', 'CNY', 'USD', 'USDT'] as const;
export type ValuationCurrency = (typeof VALUATION_CURRENCIES)[number];
