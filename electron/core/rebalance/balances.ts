import { z } from 'zod';
import {
  CrossMarginAccount,
  MarginPairAccount,
  OwnFuturesAccount,
  SpotAccount,
  SubAccountSpotBalance,
} from '../../../shared/api/records.ts';
import { FUTURES_SETTLES } from '../../../shared/balances.ts';
import type { ApiClient, Priority } from '../client/client.ts';
import { everyRecord } from '../client/pagination.ts';
import { subAccountBalancesAllAtOnce, subAccountSpotBalances } from '../client/subAccountBalances.ts';
import { accountKey, type AccountRef } from './route.ts';

// Fresh balances of the accounts a plan or a batch touches, read with the main key: what can move now is
// `available`. Each kind is read with the fewest requests: the sub-accounts' spot accounts page by page
// (one sub-account alone by `sub_uid`), their futures, margin and cross-margin accounts in one answer
// each (§4.1), the main account's own accounts from §4.4. Delivery and options accounts have no read the
// desk uses yet: a plan or a resume over them says so rather than guessing.

const OwnFutures = OwnFuturesAccount.partial({ total: true, available: true });

function settleOf(currency: string): string {
  const settle = currency.toLowerCase();
  if (!(FUTURES_SETTLES as readonly string[]).includes(settle))
    throw new Error(`${currency} is no futures settlement currency (${FUTURES_SETTLES.join(', ')}): a futures account holds none to move`);
  return settle;
}

function marginSide(pairs: readonly z.output<typeof MarginPairAccount>[], pair: string | undefined, currency: string): string {
  const p = pairs.find((x) => x.currency_pair === pair);
  const side = p && [p.base, p.quote].find((s) => s.currency.toUpperCase() === currency);
  return side?.available ?? '0';
}

/** Every account's available balance, keyed by accountKey. */
export async function readBalances(
  client: ApiClient,
  accounts: readonly AccountRef[],
  currency: string,
  priority: Priority = 'action',
): Promise<Map<string, string>> {
  const out = new Map<string, string>();
  const kinds = (owner: 'main' | 'sub', kind: AccountRef['kind']) =>
    accounts.filter((a) => (a.owner === 'main') === (owner === 'main') && a.kind === kind);
  const reads: Promise<void>[] = [];
  for (const a of accounts) {
    if (a.kind === 'delivery' || a.kind === 'options')
      throw new Error(`Account ${accountKey(a)}: the desk reads no ${a.kind} balance yet; leave it out of the rebalance`);
    if (a.kind === 'margin' && !a.pair)
      throw new Error(`Account ${accountKey(a)}: an isolated margin account is named by its currency pair`);
  }

  const subSpot = kinds('sub', 'spot');
  if (subSpot.length === 1) {
    reads.push(
      client
        .request(
          { method: 'GET', path: '/wallet/sub_account_balances', query: [['sub_uid', subSpot[0]!.owner]], priority },
          z.array(SubAccountSpotBalance),
        )
        .then((rows) => {
          out.set(accountKey(subSpot[0]!), rows.find((r) => r.uid === subSpot[0]!.owner)?.available[currency] ?? '0');
        }),
    );
  } else if (subSpot.length > 1) {
    reads.push(
      (async () => {
        const held = new Map<string, string>();
        for await (const r of subAccountSpotBalances(client, priority)) held.set(r.uid, r.available[currency] ?? '0');
        for (const a of subSpot) out.set(accountKey(a), held.get(a.owner) ?? '0');
      })(),
    );
  }
  const subFutures = kinds('sub', 'futures');
  if (subFutures.length) {
    const settle = settleOf(currency);
    reads.push(
      subAccountBalancesAllAtOnce(client, '/wallet/sub_account_futures_balances', priority)
        .then(everyRecord)
        .then((rows) => {
          for (const a of subFutures) out.set(accountKey(a), rows.find((r) => r.uid === a.owner)?.available[settle]?.available ?? '0');
        }),
    );
  }
  const subMargin = kinds('sub', 'margin');
  if (subMargin.length) {
    reads.push(
      subAccountBalancesAllAtOnce(client, '/wallet/sub_account_margin_balances', priority)
        .then(everyRecord)
        .then((rows) => {
          for (const a of subMargin)
            out.set(accountKey(a), marginSide(rows.find((r) => r.uid === a.owner)?.available ?? [], a.pair, currency));
        }),
    );
  }
  const subCross = kinds('sub', 'cross_margin');
  if (subCross.length) {
    reads.push(
      subAccountBalancesAllAtOnce(client, '/wallet/sub_account_cross_margin_balances', priority)
        .then(everyRecord)
        .then((rows) => {
          for (const a of subCross)
            out.set(accountKey(a), rows.find((r) => r.uid === a.owner)?.available.balances[currency]?.available ?? '0');
        }),
    );
  }
  for (const a of kinds('main', 'spot')) {
    reads.push(
      client
        .request({ method: 'GET', path: '/spot/accounts', query: [['currency', currency]], priority }, z.array(SpotAccount))
        .then((rows) => {
          out.set(accountKey(a), rows.find((r) => r.currency === currency)?.available ?? '0');
        }),
    );
  }
  for (const a of kinds('main', 'futures')) {
    reads.push(
      client.request({ method: 'GET', path: `/futures/${settleOf(currency)}/accounts`, priority }, OwnFutures).then((r) => {
        out.set(accountKey(a), r.available ?? '0');
      }),
    );
  }
  for (const a of kinds('main', 'margin')) {
    reads.push(
      client
        .request({ method: 'GET', path: '/margin/accounts', query: [['currency_pair', a.pair!]], priority }, z.array(MarginPairAccount))
        .then((rows) => {
          out.set(accountKey(a), marginSide(rows, a.pair, currency));
        }),
    );
  }
  for (const a of kinds('main', 'cross_margin')) {
    reads.push(
      client.request({ method: 'GET', path: '/margin/cross/accounts', priority }, CrossMarginAccount).then((r) => {
        out.set(accountKey(a), r.balances[currency]?.available ?? '0');
      }),
    );
  }
  await Promise.all(reads);
  return out;
}

/** One account's available balance. */
export async function readBalance(client: ApiClient, account: AccountRef, currency: string): Promise<string> {
  return (await readBalances(client, [account], currency)).get(accountKey(account))!;
}
