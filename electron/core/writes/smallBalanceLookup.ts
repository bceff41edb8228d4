import { listOf, SmallBalanceRecord, SpotAccount } from '../../../shared/api/records.ts';
import { Dec } from '../../../shared/money.ts';
import type { IntentView } from '../journal/intents.ts';
import { unknownFrom, type Lookup, type WriteClient } from './lookups.ts';

// How a small-balance conversion whose answer was lost is settled. §4.1 POST /wallet/small_balance takes
// no id and answers no body, so nothing can be looked up by id. The evidence, asked with the key that
// converted (each account's history and balance are its own):
// - found: a GT conversion of that currency in the account's small-balance history (§2.9), created after
//   the intent (less a skew margin) and not already claimed by another intent of the journal;
// - absent: no such record, and the spot balance still holds the currency (the dust is still there);
// - unknown: no record yet the balance is gone (the history may lag, or someone converted it by hand):
//   it proves nothing either way and is asked again, never sent.
// The executor sends again only after "absent" holds over lookups spanning the settling time (rule 2 of
// executor.ts), so a conversion is never resent blind. A late first attempt landing after a resend
// cannot convert twice: the balance it converts is gone, and the exchange refuses a currency that is no
// small balance (the refusal is then looked up again, executor.ts sendOnce).

/** Clocks differ: a record up to this much older than the intent still counts as its conversion. */
const SKEW_S = 300;
const PAGE = 100;
/** Ten pages of one currency's conversions since the intent is far beyond any account's dust. */
const MAX_PAGES = 10;

export async function lookupSmallBalance(client: WriteClient, v: IntentView, claimed: ReadonlySet<string>): Promise<Lookup> {
  const currency = String(v.body.currency);
  const from = Math.floor(v.created_at / 1000) - SKEW_S;
  const matches: SmallBalanceRecord[] = [];
  try {
    for (let page = 1; ; page++) {
      if (page > MAX_PAGES)
        return { kind: 'unknown', impossible: true, reason: `more than ${MAX_PAGES * PAGE} ${currency} conversions since the intent` };
      const rows = await client.request(
        {
          method: 'GET',
          path: '/wallet/small_balance_history',
          query: [
            ['currency', currency],
            ['page', String(page)],
            ['limit', String(PAGE)],
          ],
          priority: 'action',
        },
        listOf(SmallBalanceRecord),
      );
      // Filter again: an exchange that ignored the filter must not make another currency's record look like ours.
      for (const r of rows) if (r.currency === currency && Number(r.create_time) >= from && !claimed.has(r.id)) matches.push(r);
      // Newest first (the Sandbox's order; the live service's is not shown): a page ending before `from` ends the search.
      const last = rows.at(-1);
      if (rows.length < PAGE || (last && Number(last.create_time) < from)) break;
    }
  } catch (e) {
    return unknownFrom(e);
  }
  if (matches.length) {
    // The oldest unclaimed record is this intent's: a later one belongs to a later conversion.
    const first = matches.reduce((a, b) => (Number(b.create_time) < Number(a.create_time) ? b : a));
    return { kind: 'found', copies: 1, exchange_id: first.id };
  }
  let held: Dec;
  try {
    const acc = await client.request(
      { method: 'GET', path: '/spot/accounts', query: [['currency', currency]], priority: 'action' },
      listOf(SpotAccount),
    );
    held = acc.filter((a) => a.currency === currency).reduce((s, a) => s.plus(a.available), new Dec(0));
  } catch (e) {
    return unknownFrom(e);
  }
  if (held.gt(0)) return { kind: 'absent' };
  return {
    kind: 'unknown',
    reason: `no ${currency} conversion is in the small-balance history, yet the spot balance holds no ${currency}: the history may lag`,
  };
}
