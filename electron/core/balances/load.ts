import { FUTURES_SETTLES } from '../../../shared/balances.ts';
import type { ApiClient, Priority } from '../client/client.ts';
import { z } from 'zod';
import { ExchangeError, NetworkError } from '../errors.ts';
import { SUB_ACCOUNT_BALANCES_MAX_LIMIT, subAccountBalancesAllAtOnce } from '../client/subAccountBalances.ts';
import { SubAccountSpotBalance } from '../../../shared/api/records.ts';
import type { UnreadRecord } from '../../../shared/unread.ts';
import type { Ticker } from './valuation.ts';

// Reads for the balances pages, the fewest the API allows, all handed to the scheduler at once (it
// paces them under §8.2; different buckets go in parallel):
// - GET /sub_accounts: uids and names, and how many sub-accounts there are;
// - GET /wallet/sub_account_balances (spot): ceil(n / 100) pages: page 1 at once, the others together
//   once n is known (knowing n saves the empty page a blind §8.1 loop would end with);
// - GET /wallet/sub_account_margin_balances, ..._futures_balances (settle omitted: every settlement
//   currency), ..._cross_margin_balances: one request each with `sub_uid` omitted. The spec marks
//   cross margin's `sub_uid` "Required ?"; the live service's API reference (its generated SDK
//   documentation, WalletApi listSubAccountCrossMarginBalances) lists sub_uid as optional: "If not
//   specified, it will return records of all sub-accounts". The desk follows that.
// - GET /spot/tickers (public, one request) for valuation.

export type Wire = Record<string, unknown>;

// These reads are refined field by field where they are used (valuation.ts, matrix.ts); here only the
// outer shape is checked as they arrive.
const AnyList = z.array(z.unknown());
const AnyRecord = z.looseObject({});
const SubAccount = z.looseObject({ user_id: z.union([z.number(), z.string()]), login_name: z.string().optional() });
export interface SubAccountInfo {
  uid: string;
  name: string;
}
export interface SpotWire {
  uid: string;
  available: Record<string, string>;
  locking?: Record<string, string>;
}
export interface AllAtOnceWire {
  uid: string;
  available: unknown;
}

export interface SubAccountsRaw {
  accounts: SubAccountInfo[];
  spot: SpotWire[];
  margin: AllAtOnceWire[];
  futures: AllAtOnceWire[];
  cross: AllAtOnceWire[];
  tickers: Ticker[];
  requests: number;
  /** Records set aside as malformed: their sub-accounts show without them, and the page says so. */
  unread: UnreadRecord[];
}

function list<T>(v: unknown, what: string): T[] {
  if (!Array.isArray(v)) throw new NetworkError(`the exchange answered ${what} with something other than a list`);
  return v as T[];
}

export async function loadSubAccounts(
  client: ApiClient,
  priority: Priority,
  progress: (loaded: number, total: number) => void,
): Promise<SubAccountsRaw> {
  let loaded = 0;
  let total = 5; // sub_accounts, margin, futures, cross, tickers; spot pages are added as they are asked
  const tick = <T>(p: Promise<T>): Promise<T> => {
    const counted = p.then((v) => {
      loaded++;
      progress(loaded, total);
      return v;
    });
    // When one read fails the load ends with that error; the others' failures are then nobody's to report.
    counted.catch(() => {});
    return counted;
  };
  progress(0, total);
  const accountsP = tick(client.requestList({ method: 'GET', path: '/sub_accounts', priority }, SubAccount));
  const marginP = tick(subAccountBalancesAllAtOnce(client, '/wallet/sub_account_margin_balances', priority));
  const futuresP = tick(subAccountBalancesAllAtOnce(client, '/wallet/sub_account_futures_balances', priority));
  const crossP = tick(subAccountBalancesAllAtOnce(client, '/wallet/sub_account_cross_margin_balances', priority));
  const tickersP = tick(client.request({ method: 'GET', path: '/spot/tickers', signed: false, priority }, AnyList));

  const spotPage = (n: number) =>
    tick(
      client.requestList(
        {
          method: 'GET',
          path: '/wallet/sub_account_balances',
          priority,
          query: [
            ['limit', String(SUB_ACCOUNT_BALANCES_MAX_LIMIT)],
            ['page', String(n)],
          ],
        },
        SubAccountSpotBalance,
      ),
    );
  // Page 1 is needed whatever n is (a desk with no sub-accounts learns that from /sub_accounts and
  // page 1 alike); asked at once, its answer also informs the scheduler's bucket before the burst.
  total += 1;
  const firstSpot = spotPage(1);
  const accountList = await accountsP;
  const accounts = accountList.records.map((a) => ({ uid: String(a.user_id), name: String(a.login_name ?? '') }));
  const pages = Math.max(1, Math.ceil(accountList.sent / SUB_ACCOUNT_BALANCES_MAX_LIMIT));
  total += pages - 1;
  progress(loaded, total);
  const spotPages = await Promise.all([firstSpot, ...Array.from({ length: pages - 1 }, (_, i) => spotPage(i + 2))]);
  const [margin, futures, cross, tickers] = await Promise.all([marginP, futuresP, crossP, tickersP]);
  const answers = [accountList, ...spotPages, margin, futures, cross];
  return {
    accounts,
    spot: spotPages.flatMap((p) => p.records),
    margin: margin.records,
    futures: futures.records,
    cross: cross.records,
    tickers: list<Ticker>(tickers, 'GET /spot/tickers'),
    requests: total,
    unread: answers.flatMap((a) => a.unread),
  };
}

export interface MainRaw {
  spot: Array<{ currency: string; available: string; locked: string }>;
  margin: Wire[];
  futures: Record<string, Wire>;
  cross: Wire | null;
  tickers: Ticker[];
}

/** USER_NOT_FOUND means the account was never opened (§7): the desk shows it as absent, not as an error. */
async function orAbsent<T>(p: Promise<T>): Promise<T | null> {
  try {
    return await p;
  } catch (e) {
    if (e instanceof ExchangeError && e.label === 'USER_NOT_FOUND') return null;
    throw e;
  }
}

/** The main account's own accounts: /spot/accounts, /margin/accounts, /futures/{settle}/accounts per settle, /margin/cross/accounts. */
export async function loadMain(client: ApiClient, priority: Priority): Promise<MainRaw> {
  const list_ = (path: string, signed = true) => client.request({ method: 'GET', path, priority, signed }, AnyList);
  const one = (path: string): Promise<Wire> => client.request({ method: 'GET', path, priority }, AnyRecord);
  const [spot, margin, cross, tickers, ...futures] = await Promise.all([
    list_('/spot/accounts'),
    list_('/margin/accounts'),
    orAbsent(one('/margin/cross/accounts')),
    list_('/spot/tickers', false),
    ...FUTURES_SETTLES.map((s) => orAbsent(one(`/futures/${s}/accounts`))),
  ]);
  const fut: Record<string, Wire> = {};
  FUTURES_SETTLES.forEach((s, i) => {
    if (futures[i]) fut[s] = futures[i]!;
  });
  return {
    spot: list(spot, 'GET /spot/accounts'),
    margin: list(margin, 'GET /margin/accounts'),
    futures: fut,
    cross,
    tickers: list(tickers, 'GET /spot/tickers'),
  };
}
