// §8.2 request-rate table as data. A rule either gives each endpoint its own bucket ("endpoint")
// or puts every matching endpoint in one shared bucket ("group"). Paths are relative to /api/v4.
export type RateScope = 'uid' | 'ip';

export interface RateRule {
  id: string;
  limit: number;
  windowSec: number;
  scope: RateScope;
  per: 'endpoint' | 'group';
  /** Matches "METHOD /path" (path without /api/v4 and without query). */
  match: RegExp;
}

const WALLET_80 = [
  'POST /wallet/transfers',
  'POST /wallet/sub_account_transfers',
  'POST /wallet/sub_account_to_sub_account',
  'GET /wallet/total_balance',
  'GET /wallet/sub_account_balances',
  'GET /wallet/sub_account_margin_balances',
  'GET /wallet/sub_account_futures_balances',
  'GET /wallet/sub_account_cross_margin_balances',
];

function exact(list: string[]): RegExp {
  return new RegExp(`^(${list.map((s) => s.replace(/[/]/g, '\\/')).join('|')})$`);
}

/** First matching rule wins, so specific rows come before catch-alls. */
export const RATE_RULES: readonly RateRule[] = [
  {
    id: 'public',
    limit: 200,
    windowSec: 10,
    scope: 'ip',
    per: 'endpoint',
    match: /^GET \/(spot\/(time|currencies|currency_pairs|tickers|order_book|candlesticks|trades)|wallet\/currency_chains)(\/.*)?$/,
  },
  { id: 'withdraw', limit: 1, windowSec: 3, scope: 'uid', per: 'endpoint', match: /^POST \/withdrawals$/ },
  { id: 'withdraw_push', limit: 1, windowSec: 10, scope: 'uid', per: 'endpoint', match: /^POST \/withdrawals\/push$/ },
  { id: 'wallet_80', limit: 80, windowSec: 10, scope: 'uid', per: 'endpoint', match: exact(WALLET_80) },
  { id: 'wallet_other', limit: 200, windowSec: 10, scope: 'uid', per: 'endpoint', match: /^[A-Z]+ \/(wallet|withdrawals)(\/.*)?$/ },
  {
    id: 'spot_place',
    limit: 10,
    windowSec: 1,
    scope: 'uid',
    per: 'group',
    match: /^(POST \/spot\/(orders|batch_orders|amend_batch_orders)|PATCH \/spot\/orders\/[^/]+)$/,
  },
  {
    id: 'spot_cancel',
    limit: 200,
    windowSec: 1,
    scope: 'uid',
    per: 'group',
    match: /^(DELETE \/spot\/orders(\/[^/]+)?|POST \/spot\/cancel_batch_orders)$/,
  },
  { id: 'spot_other', limit: 200, windowSec: 10, scope: 'uid', per: 'endpoint', match: /^[A-Z]+ \/spot(\/.*)?$/ },
  { id: 'futures_other', limit: 200, windowSec: 10, scope: 'uid', per: 'endpoint', match: /^[A-Z]+ \/futures(\/.*)?$/ },
  { id: 'delivery_other', limit: 200, windowSec: 10, scope: 'uid', per: 'endpoint', match: /^[A-Z]+ \/delivery(\/.*)?$/ },
  { id: 'options_other', limit: 200, windowSec: 10, scope: 'uid', per: 'endpoint', match: /^[A-Z]+ \/options(\/.*)?$/ },
  { id: 'unified_loans', limit: 15, windowSec: 10, scope: 'uid', per: 'endpoint', match: /^POST \/unified\/loans$/ },
  { id: 'margin_other', limit: 150, windowSec: 10, scope: 'uid', per: 'endpoint', match: /^[A-Z]+ \/margin(\/.*)?$/ },
  { id: 'sub_accounts', limit: 80, windowSec: 10, scope: 'uid', per: 'endpoint', match: /^[A-Z]+ \/sub_accounts(\/.*)?$/ },
  { id: 'other_private', limit: 150, windowSec: 10, scope: 'uid', per: 'endpoint', match: /^[A-Z]+ \/.*$/ },
];

export interface BucketRef {
  rule: RateRule;
  /** Bucket name; endpoint-scoped rules key by the endpoint with ids collapsed. */
  key: string;
}

/** Path segments that are ids (withdrawal ids, order ids, contract names) share one endpoint bucket. */
function endpointOf(method: string, path: string): string {
  const p = path
    .replace(/^\/withdrawals\/(?!push$)[^/]+$/, '/withdrawals/{id}')
    .replace(/^\/spot\/orders\/[^/]+$/, '/spot/orders/{id}')
    .replace(/^\/(futures|delivery)\/[^/]+\//, '/$1/{settle}/')
    .replace(/^\/sub_accounts\/\d+(?=\/|$)/, '/sub_accounts/{user_id}')
    .replace(/^\/sub_accounts\/\{user_id\}\/keys\/[^/]+$/, '/sub_accounts/{user_id}/keys/{key}');
  return `${method} ${p}`;
}

export function bucketFor(method: string, path: string): BucketRef {
  const m = method.toUpperCase();
  const endpoint = endpointOf(m, path);
  const rule = RATE_RULES.find((r) => r.match.test(`${m} ${path}`)) ?? RATE_RULES[RATE_RULES.length - 1]!;
  return { rule, key: rule.per === 'group' ? rule.id : `${rule.id}:${endpoint}` };
}
