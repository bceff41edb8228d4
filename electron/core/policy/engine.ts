import type { Destination, Policy, Rule, RuleVerdict, Verdict, WriteKind } from '../../../shared/api/policy.ts';
import { dec, Dec, fmt, groupDigits } from '../../../shared/money.ts';
import { isManagementKind } from '../../../shared/api/subAccounts.ts';

// The policy engine: a pure function from the policy, one request and what the desk knows around it
// (valuation, destination lists, recent outflow) to a verdict, rule by rule. Anything it cannot know
// (a missing valuation) counts against the money: an "allow" does not match, a "require" or "block" does.

export interface PolicyRequest {
  kind: WriteKind;
  currency: string;
  amount: string;
  /** Where the money goes; null for moves between the desk's own accounts. */
  destination: Destination | null;
  /** USDT per unit of the currency from spot tickers; null when no valuation is available. */
  usdt_price: string | null;
  /** The currency's outflow over the last 24 hours, approved and in flight included, this write excluded. */
  velocity_24h: string;
}

type Check = { ok: boolean; why: string };

function checks(rule: Rule, r: PolicyRequest): Check[] {
  const m = rule.match;
  const restrictive = rule.action !== 'allow';
  const out: Check[] = [];
  if (m.kinds)
    out.push({
      ok: m.kinds.includes(r.kind),
      why: `kind ${r.kind} ${m.kinds.includes(r.kind) ? 'is' : 'is not'} one of ${m.kinds.join(', ')}`,
    });
  if (m.currencies) {
    // Currency names are the exchange's upper case; a rule typed as "usdt" must still hold a USDT withdrawal
    // to its quorum rather than silently matching nothing.
    const wanted = r.currency.toUpperCase();
    const ok = m.currencies.some((c) => c.toUpperCase() === wanted);
    out.push({ ok, why: `currency ${r.currency} ${ok ? 'is' : 'is not'} one of ${m.currencies.join(', ')}` });
  }
  if (m.amount_at_least) {
    const ok = dec(r.amount).gte(dec(m.amount_at_least));
    out.push({ ok, why: `${groupDigits(r.amount)} ${r.currency} is ${ok ? 'at least' : 'below'} ${groupDigits(m.amount_at_least)}` });
  }
  if (m.usdt_at_least) {
    if (r.usdt_price === null) {
      out.push({
        ok: restrictive,
        why: `no USDT valuation of ${r.currency} is available, so the rule fails closed (${restrictive ? 'it applies' : 'it does not allow'})`,
      });
    } else {
      const value = dec(r.amount).mul(dec(r.usdt_price));
      const ok = value.gte(dec(m.usdt_at_least));
      out.push({ ok, why: `worth ${groupDigits(fmt(value, 2))} USDT, ${ok ? 'at least' : 'below'} ${groupDigits(m.usdt_at_least)} USDT` });
    }
  }
  if (m.destinations) {
    const d = r.destination;
    const ok = d !== null && m.destinations.includes(d);
    out.push({ ok, why: d === null ? "the money stays in the desk's own accounts" : `destination is ${DESTINATION_WORDS[d]}` });
  }
  if (m.velocity_24h_at_least) {
    const total = dec(r.velocity_24h).plus(dec(r.amount));
    const ok = total.gte(dec(m.velocity_24h_at_least));
    out.push({
      ok,
      why: `24-hour outflow with this write is ${groupDigits(fmt(total))} ${r.currency}, ${ok ? 'at least' : 'below'} ${groupDigits(m.velocity_24h_at_least)}`,
    });
  }
  return out;
}

const DESTINATION_WORDS: Record<Destination, string> = {
  verified_saved: 'a verified saved address at the exchange',
  address_book: "in the desk's address book",
  unknown: 'on no list',
};

export function evaluate(policy: Policy, r: PolicyRequest): Verdict {
  const rules: RuleVerdict[] = [];
  let decided: Rule | null = null;
  for (const rule of policy.rules) {
    if (decided) {
      rules.push({ rule: rule.id, matched: false, why: [`not reached: rule ${decided.id} decided first`] });
      continue;
    }
    const cs = checks(rule, r);
    const matched = cs.every((c) => c.ok);
    rules.push({ rule: rule.id, matched, why: cs.length ? cs.map((c) => c.why) : ['matches every write'] });
    if (matched) decided = rule;
  }
  if (!decided) return { decision: 'block', rule: null, approvals: 0, drafter_may_approve: false, rules };
  return {
    decision: decided.action,
    rule: decided.id,
    approvals: decided.action === 'require' ? decided.approvals! : 0,
    drafter_may_approve: decided.drafter_may_approve ?? false,
    rules,
  };
}

export { changeQuorum } from '../../../shared/api/policy.ts';

export interface OutflowIntent {
  kind: WriteKind;
  state: string;
  created_at: number;
  body: Readonly<Record<string, string | number | boolean>>;
}

/** Money that leaves the account, approved and in flight included, so a batch cannot slip under a velocity rule. */
export const OUTFLOW_KINDS: ReadonlySet<string> = new Set<WriteKind>(['withdrawal', 'uid_transfer']);
const COUNTED_STATES = new Set(['approved', 'in_flight', 'unconfirmed', 'accepted', 'done', 'needs_attention']);

export function outflow24h(intents: readonly OutflowIntent[], currency: string, nowMs: number): string {
  let sum = new Dec(0);
  for (const i of intents) {
    if (!OUTFLOW_KINDS.has(i.kind) || !COUNTED_STATES.has(i.state) || i.body.currency !== currency) continue;
    if (nowMs - i.created_at > 86_400_000) continue;
    if (typeof i.body.amount === 'string') sum = sum.plus(dec(i.body.amount));
  }
  return fmt(sum);
}

/**
 * Whether the policy has a say over a kind of write: every kind is governed unless the first rule that
 * can apply to it allows it outright. Governed kinds are sent only through signed approvals.
 */
export function governs(policy: Policy, kind: WriteKind): boolean {
  // Sub-account management is always signed for (governance/management.ts), whatever the rules say.
  if (isManagementKind(kind)) return true;
  for (const rule of policy.rules) {
    if (rule.match.kinds && !rule.match.kinds.includes(kind)) continue;
    const onlyKinds = Object.keys(rule.match).every((k) => k === 'kinds');
    return !(rule.action === 'allow' && onlyKinds);
  }
  return true;
}
