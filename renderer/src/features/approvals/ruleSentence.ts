import type { Destination, Rule, WriteKind } from '../../../../shared/api/policy.ts';
import { groupDigits } from '../../../../shared/money.ts';

// A policy rule in one sentence, so that an operator reads what a row does instead of decoding its
// fields. The words follow the engine (electron/core/policy/engine.ts): every condition must hold.

/** The writes of a kind, as a plural noun. */
export const KIND_WORDS: Record<WriteKind, string> = {
  withdrawal: 'withdrawals',
  main_sub_transfer: 'main/sub transfers',
  own_transfer: 'own-account transfers',
  sub_to_sub_transfer: 'sub-to-sub transfers',
  sub_own_transfer: 'sub-account own-account transfers',
  uid_transfer: 'UID transfers',
  spot_order: 'spot orders',
  spot_cancel: 'order cancellations',
  spot_cancel_all: 'cancellations of all orders of a pair',
  small_balance_convert: 'small-balance conversions to GT',
  sub_account_lock: 'sub-account locks',
  sub_account_unlock: 'sub-account unlocks',
  sub_account_key_create: 'sub-account key creations',
  sub_account_key_delete: 'sub-account key removals',
  sub_account_create: 'sub-account creations',
};

/** Where the money goes, after "to". */
export const DESTINATION_WORDS: Record<Destination, string> = {
  verified_saved: 'a verified saved address at the exchange',
  address_book: "an address in the desk's address book",
  unknown: 'an unknown destination',
};

export const capitalised = (s: string): string => s.charAt(0).toUpperCase() + s.slice(1);

/** "a", "a or b", "a, b or c". */
function either(items: readonly string[]): string {
  return items.length < 2 ? (items[0] ?? '') : `${items.slice(0, -1).join(', ')} or ${items.at(-1)!}`;
}

function consequence(rule: Rule, plural: boolean): string {
  if (rule.action === 'allow') return `${plural ? 'are' : 'is'} allowed without approval`;
  if (rule.action === 'block') return `${plural ? 'are' : 'is'} blocked`;
  const n = rule.approvals ?? 1;
  const need = `${plural ? 'need' : 'needs'} ${n} approval${n === 1 ? '' : 's'}`;
  if (!rule.drafter_may_approve) return `${need}, not by the drafter`;
  return n === 1 ? `${need}, which the drafter may give` : `${need}, one of which the drafter may give`;
}

/**
 * What a rule does, in one sentence. `first`: no rule comes before it; a rule matching every write
 * after others catches "every other write", since the first rule that matches decides.
 */
export function ruleSentence(rule: Rule, { first = false }: { first?: boolean } = {}): string {
  const m = rule.match;
  const conditions: string[] = [];
  if (m.currencies) conditions.push(`of ${either(m.currencies)}`);
  if (m.amount_at_least) conditions.push(`of at least ${groupDigits(m.amount_at_least)}${m.currencies ? '' : ' in their own currency'}`);
  if (m.usdt_at_least) conditions.push(`worth at least ${groupDigits(m.usdt_at_least)} USDT`);
  if (m.destinations) conditions.push(`to ${either(m.destinations.map((d) => DESTINATION_WORDS[d]))}`);
  if (m.velocity_24h_at_least)
    conditions.push(`when they bring their currency's 24-hour outflow to at least ${groupDigits(m.velocity_24h_at_least)}`);
  if (!m.kinds && conditions.length === 0) return `${first ? 'Every write' : 'Every other write'} ${consequence(rule, false)}.`;
  const subject = m.kinds ? either(m.kinds.map((k) => KIND_WORDS[k])) : 'writes';
  return `${capitalised([subject, ...conditions].join(' '))} ${consequence(rule, true)}.`;
}
