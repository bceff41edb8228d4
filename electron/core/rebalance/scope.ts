import { z } from 'zod';
import type { RebalanceScope, ScopeAccount } from '../../../shared/rebalance.ts';
import { FUTURES_SETTLES } from '../../../shared/balances.ts';
import { SUB_ACCOUNT_LOCKED_STATE } from '../../../shared/api/subAccounts.ts';
import type { ActiveSession } from '../session.ts';
import { everyRecord } from '../client/pagination.ts';
import { subAccountBalancesAllAtOnce } from '../client/subAccountBalances.ts';
import { readBalances } from './balances.ts';
import { accountKey, type AccountRef } from './route.ts';

// The accounts a rebalance of one currency could touch, each with its balance and, where no transfer can
// reach it, the reason, so that the page offers them all and says why some are left out.

/** Every account of the main account and its sub-accounts that could hold `currency`, read now. */
export async function readScope(
  s: Pick<ActiveSession, 'client' | 'subKeys'>,
  currency: string,
  now: () => number,
): Promise<RebalanceScope> {
  const subs = await s.client.request(
    { method: 'GET', path: '/sub_accounts', priority: 'action' },
    z.array(z.looseObject({ user_id: z.union([z.number(), z.string()]), login_name: z.string().optional(), state: z.number().optional() })),
  );
  const locked = new Set(subs.filter((x) => x.state === SUB_ACCOUNT_LOCKED_STATE).map((x) => String(x.user_id)));
  const futures = (FUTURES_SETTLES as readonly string[]).includes(currency.toLowerCase());
  const accounts: { account: AccountRef; name: string }[] = [{ account: { owner: 'main', kind: 'spot' }, name: '' }];
  if (futures) accounts.push({ account: { owner: 'main', kind: 'futures' }, name: '' });
  const nameOf = (uid: string) => subs.find((x) => String(x.user_id) === uid)?.login_name ?? '';
  for (const sub of subs) {
    const uid = String(sub.user_id);
    accounts.push({ account: { owner: uid, kind: 'spot' }, name: sub.login_name ?? '' });
    if (futures) accounts.push({ account: { owner: uid, kind: 'futures' }, name: sub.login_name ?? '' });
  }
  // A sub-account's isolated margin accounts move through its own spot account, a hop its own key signs:
  // offered for the sub-accounts whose key the profile holds, for the pairs that hold this currency.
  const keyed = s.subKeys.uids();
  if (keyed.length) {
    const margin = everyRecord(await subAccountBalancesAllAtOnce(s.client, '/wallet/sub_account_margin_balances', 'action'));
    for (const m of margin) {
      if (!s.subKeys.has(m.uid)) continue;
      for (const p of m.available) {
        if ([p.base.currency, p.quote.currency].some((c) => c.toUpperCase() === currency))
          accounts.push({ account: { owner: m.uid, kind: 'margin', pair: p.currency_pair }, name: nameOf(m.uid) });
      }
    }
  }
  const held = await readBalances(
    s.client,
    accounts.map((a) => a.account),
    currency,
  );
  const rows: ScopeAccount[] = accounts.map((a) => ({
    ...a,
    balance: held.get(accountKey(a.account)) ?? '0',
    // The exchange refuses every transfer into or out of a locked sub-account: offered, but left out.
    reachable: !locked.has(a.account.owner),
    why: locked.has(a.account.owner)
      ? 'the sub-account is locked: the exchange refuses transfers into or out of it (SUB_ACCOUNT_LOCKED); unlock it first'
      : null,
  }));
  for (const uid of keyed) {
    rows.push({
      account: { owner: uid, kind: 'cross_margin' },
      name: nameOf(uid),
      balance: '0',
      reachable: false,
      why: 'the exchange offers no transfer into or out of a cross-margin account, so no rebalance can move it',
    });
  }
  return { currency, read_at: now(), accounts: rows };
}
