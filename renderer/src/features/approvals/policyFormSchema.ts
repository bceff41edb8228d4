import type { Path } from 'react-hook-form';
import { z } from 'zod';
import {
  DEFAULT_REQUEST_EXPIRY_HOURS,
  DESTINATIONS,
  Policy,
  Rule,
  type Destination,
  type RuleMatch,
  type WriteKind,
} from '../../../../shared/api/policy.ts';
import { WRITE_KINDS } from '../../../../shared/api/writes.ts';

// The policy editor's form: one row of strings and booleans per rule, turned into the contract's Rule
// and checked by the contract's Policy, each issue put back on the row's field it names.

export interface RuleRow {
  id: string;
  /** None ticked: any kind. */
  kinds: WriteKind[];
  /** Comma-separated; empty: any currency. */
  currencies: string;
  amount_at_least: string;
  usdt_at_least: string;
  /** None ticked: any destination. */
  destinations: Destination[];
  velocity_24h_at_least: string;
  action: Rule['action'];
  /** Read for "require" only. */
  approvals: string;
  drafter_may_approve: boolean;
}

export interface PolicyFormValues {
  rules: RuleRow[];
  request_expiry_hours: string;
}

export const MATCH_FIELDS = ['kinds', 'currencies', 'amount_at_least', 'usdt_at_least', 'destinations', 'velocity_24h_at_least'] as const;
const LIST_FIELDS = ['kinds', 'currencies', 'destinations'] as const;

export const NEW_ROW: RuleRow = {
  id: '',
  kinds: [],
  currencies: '',
  amount_at_least: '',
  usdt_at_least: '',
  destinations: [],
  velocity_24h_at_least: '',
  action: 'require',
  approvals: '1',
  drafter_may_approve: false,
};

export function rowOf(rule: Rule): RuleRow {
  const m = rule.match;
  return {
    id: rule.id,
    kinds: m.kinds ?? [],
    currencies: m.currencies?.join(', ') ?? '',
    amount_at_least: m.amount_at_least ?? '',
    usdt_at_least: m.usdt_at_least ?? '',
    destinations: m.destinations ?? [],
    velocity_24h_at_least: m.velocity_24h_at_least ?? '',
    action: rule.action,
    approvals: rule.approvals === undefined ? '' : String(rule.approvals),
    drafter_may_approve: rule.drafter_may_approve ?? false,
  };
}

export function valuesOf(policy: Policy): PolicyFormValues {
  return {
    rules: policy.rules.map(rowOf),
    request_expiry_hours: String(policy.request_expiry_hours ?? DEFAULT_REQUEST_EXPIRY_HOURS),
  };
}

const wholeNumber = (s: string): number | undefined => (/^\d{1,6}$/.test(s.trim()) ? Number(s.trim()) : undefined);

/** A row as the contract's Rule would read it (unchecked): empty fields left out, approvals only for "require". */
function ruleOfRow(row: RuleRow): Rule {
  const match: Record<string, unknown> = {};
  const currencies = row.currencies
    .split(',')
    .map((c) => c.trim())
    .filter(Boolean);
  if (row.kinds.length) match.kinds = row.kinds;
  if (currencies.length) match.currencies = currencies;
  if (row.destinations.length) match.destinations = row.destinations;
  for (const f of ['amount_at_least', 'usdt_at_least', 'velocity_24h_at_least'] as const) if (row[f].trim()) match[f] = row[f].trim();
  const rule: Record<string, unknown> = { id: row.id.trim(), match: match as RuleMatch, action: row.action };
  if (row.action === 'require') {
    const approvals = wholeNumber(row.approvals);
    if (approvals !== undefined) rule.approvals = approvals;
    if (row.drafter_may_approve) rule.drafter_may_approve = true;
  }
  return rule as Rule;
}

/** The row's rule when the contract accepts it (a row's sentence is said only then). */
export function checkedRule(row: RuleRow): Rule | null {
  const parsed = Rule.safeParse(ruleOfRow(row));
  return parsed.success ? parsed.data : null;
}

/**
 * Where a Policy issue sits on the form: a match field is on its row (its list item on the list), and
 * the one check on a whole rule is a "require" rule's approvals.
 */
export function formPathOf(issue: { path: PropertyKey[]; code: string }): PropertyKey[] {
  const [head, i, key, sub] = issue.path;
  if (head !== 'rules' || typeof i !== 'number') return issue.path.slice(0, 1);
  if (key === undefined) return issue.code === 'custom' ? ['rules', i, 'approvals'] : ['rules', i];
  if (key === 'match') return sub === undefined ? ['rules', i] : ['rules', i, sub];
  return ['rules', i, key];
}

/** Zod's generic limits, said as the operator reads them; the contract's own messages stay as they are. */
const limitWords: z.core.$ZodErrorMap = (iss) => {
  const last = iss.path?.at(-1);
  if (iss.code === 'too_small' && iss.origin === 'array' && last === 'rules') return 'a policy has at least one rule';
  if (iss.code === 'too_big' && iss.origin === 'array' && last === 'rules') return `a policy has at most ${String(iss.maximum)} rules`;
  if (iss.code === 'too_small' && iss.origin === 'string' && last === 'id') return 'a rule needs an id';
  if (iss.code === 'too_small' && iss.origin === 'number') return `at least ${String(iss.minimum)}`;
  if (iss.code === 'too_big' && iss.origin === 'number') return `at most ${String(iss.maximum)}`;
  if (iss.code === 'too_big' && iss.origin === 'string') return `at most ${String(iss.maximum)} characters`;
  return undefined;
};

/** The contract's Policy, its generic limits in words. */
export const checkPolicy = (raw: unknown) => Policy.safeParse(raw, { error: limitWords });

const Row = z.object({
  id: z.string(),
  kinds: z.array(z.enum(WRITE_KINDS)),
  currencies: z.string(),
  amount_at_least: z.string(),
  usdt_at_least: z.string(),
  destinations: z.array(z.enum(DESTINATIONS)),
  velocity_24h_at_least: z.string(),
  action: z.enum(['allow', 'require', 'block']),
  approvals: z.string(),
  drafter_may_approve: z.boolean(),
});

/** The form's values to a Policy: the form's own checks (whole numbers, distinct ids), then the contract's. */
export const PolicyFormSchema = z.object({ rules: z.array(Row), request_expiry_hours: z.string() }).transform((v, ctx): Policy => {
  const taken = new Set<string>();
  const problem = (path: PropertyKey[], message: string) => {
    if (taken.has(path.join('.'))) return;
    taken.add(path.join('.'));
    ctx.addIssue({ code: 'custom', path, message });
  };
  const seen = new Map<string, number>();
  v.rules.forEach((row, i) => {
    if (row.action === 'require' && row.approvals.trim() && wholeNumber(row.approvals) === undefined)
      problem(['rules', i, 'approvals'], 'approvals are a whole number such as 2');
    const id = row.id.trim();
    if (id && seen.has(id)) problem(['rules', i, 'id'], `rule ${seen.get(id)! + 1} has this id already: each rule needs its own`);
    else seen.set(id, i);
  });
  const hours = wholeNumber(v.request_expiry_hours);
  if (hours === undefined) problem(['request_expiry_hours'], 'the expiry is a whole number of hours, such as 72');
  const candidate = { rules: v.rules.map(ruleOfRow), request_expiry_hours: hours ?? DEFAULT_REQUEST_EXPIRY_HOURS };
  const parsed = checkPolicy(candidate);
  if (parsed.success && taken.size === 0) return parsed.data;
  for (const issue of parsed.error?.issues ?? []) problem(formPathOf(issue), issue.message);
  return z.NEVER;
});

/**
 * Core refusals name places in the Policy ("policy.rules.1.match.amount_at_least"); the form holds a
 * match field on its row, and a list's items as the one field of the list.
 */
export function renamedFromPolicy(values: PolicyFormValues): Record<string, Path<PolicyFormValues>> {
  const out: Record<string, Path<PolicyFormValues>> = {};
  values.rules.forEach((row, i) => {
    for (const f of MATCH_FIELDS) out[`rules.${i}.match.${f}`] = `rules.${i}.${f}`;
    for (const f of LIST_FIELDS) {
      const items = Math.max(WRITE_KINDS.length, row.currencies.split(',').length);
      for (let k = 0; k < items; k++) out[`rules.${i}.match.${f}.${k}`] = `rules.${i}.${f}`;
    }
  });
  return out;
}

const FIELD_WORDS: Record<string, string> = {
  id: 'id',
  kinds: 'kinds',
  currencies: 'currencies',
  amount_at_least: 'amount at least',
  usdt_at_least: 'USDT value at least',
  destinations: 'destinations',
  velocity_24h_at_least: '24-hour outflow at least',
  action: 'action',
  approvals: 'approvals',
  drafter_may_approve: "drafter's approval",
  request_expiry_hours: 'request expiry',
};

/** A form path in words: "rule 2 (two-approvals), approvals", "request expiry", "the rules". */
export function whereWords(path: PropertyKey[], ids: readonly unknown[]): string {
  const [head, i, key] = path;
  if (head === 'rules' && typeof i === 'number') {
    const id = typeof ids[i] === 'string' ? ids[i].trim() : '';
    const rule = `rule ${i + 1}${id ? ` (${id})` : ''}`;
    return key === undefined ? rule : `${rule}, ${FIELD_WORDS[String(key)] ?? String(key)}`;
  }
  if (head === 'rules') return 'the rules';
  return head === undefined ? 'the policy' : (FIELD_WORDS[String(head)] ?? String(head));
}
