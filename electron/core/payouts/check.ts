import type { WithdrawalChain, WithdrawalLimits } from '../../../shared/api/records.ts';
import { WithdrawalInput } from '../../../shared/api/writes.ts';
import { destinationProblems } from '../../../shared/destination.ts';
import { amountProblem, dec, Dec, fmt, isDecimalString } from '../../../shared/money.ts';
import { PAYOUT_COLUMNS, type PayoutField, type PayoutProblem, type PayoutRowView, type PayoutTotal } from '../../../shared/payouts.ts';
import { chainProblem, checkAmount, limitsOf, needsMemo } from '../../../shared/withdrawCheck.ts';
import type { RawRow } from './parse.ts';

// Every row of a payout file checked as the withdraw form checks one withdrawal (shared/withdrawCheck.ts:
// the chain's §2.2 flags, memo, precision, the §2.7 limits and fee), then across rows: duplicates (same
// destination, amount and reference: the classic double payment) and the day's remaining limit, which the
// rows of one currency share. Pure: the exchange's records come in, so tests need no exchange.

export interface CheckContext {
  /** §2.7 for every currency the exchange lists. */
  statuses: readonly WithdrawalLimits[];
  /** §2.2 chains per currency; a string says why they could not be read. */
  chains: ReadonlyMap<string, readonly WithdrawalChain[] | string>;
  /** §4.1 getLowCapExchangeList: currencies the API does not withdraw (absent when it could not be read). */
  lowCap?: ReadonlySet<string>;
}

export type CheckedRow = Omit<PayoutRowView, 'verdict' | 'destination_note'>;

/** A reference is the operator's own note (an invoice number): printable, short. */
const MAX_REFERENCE = 100;
// Control characters have no place in a payout's fields (a NUL or an escape pasted with an address).
const CONTROL = /[\u0000-\u001f\u007f]/;

function rowProblems(
  r: RawRow,
  columns: number,
  ctx: CheckContext,
): { problems: PayoutProblem[]; fee: string | null; arrives: string | null } {
  if (r.fieldCount !== columns) {
    return {
      problems: [
        {
          field: 'row',
          message: `The row has ${r.fieldCount} field${r.fieldCount === 1 ? '' : 's'} and the header ${columns}: its values cannot be told apart.`,
        },
      ],
      fee: null,
      arrives: null,
    };
  }
  const c = r.cells;
  const out: PayoutProblem[] = [];
  const add = (field: PayoutField, message: string): void => void out.push({ field, message });
  for (const f of PAYOUT_COLUMNS) if (CONTROL.test(c[f])) add(f, `The ${f} holds a control character (a tab, line break or similar).`);
  if (out.length) return { problems: out, fee: null, arrives: null };

  const status = c.currency ? ctx.statuses.find((s) => s.currency === c.currency) : undefined;
  if (!c.currency) add('currency', 'The currency is missing.');
  else if (ctx.lowCap?.has(c.currency))
    add(
      'currency',
      `${c.currency} is on the exchange's low-liquidity list (GET /wallet/getLowCapExchangeList): the API does not withdraw it (§4.1). Pay this row in another currency, or withdraw it on the exchange's site.`,
    );
  else if (!status)
    add(
      'currency',
      `The exchange lists no withdrawals of "${c.currency}" (GET /wallet/withdraw_status). Currency names are case-sensitive, such as USDT.`,
    );

  const listed = status ? ctx.chains.get(c.currency) : undefined;
  let chain: WithdrawalChain | undefined;
  if (!c.chain) add('chain', 'The chain is missing.');
  else if (typeof listed === 'string') add('chain', `The chains of ${c.currency} could not be read: ${listed}`);
  else if (listed) {
    chain = listed.find((x) => x.chain === c.chain);
    if (!chain) add('chain', `"${c.chain}" is not a chain of ${c.currency} (it has ${listed.map((x) => x.chain).join(', ') || 'none'}).`);
    else {
      const why = chainProblem(chain);
      if (why) add('chain', `${why[0]!.toUpperCase()}${why.slice(1)}.`);
    }
  }

  if (!c.address) add('address', 'The address is missing.');
  else if (c.address.length > 256) add('address', 'The address is longer than 256 characters.');
  else if (/\s/.test(c.address)) add('address', 'The address has a space in it.');
  // Look-alike letters and hidden characters, by the same check as every other door.
  for (const p of destinationProblems({ chain: c.chain, address: c.address, memo: c.memo }))
    if (!out.some((x) => x.field === p.field)) add(p.field, p.message);

  if (c.memo.length > 256) add('memo', 'The memo is longer than 256 characters.');
  else if (chain && needsMemo(chain) && !c.memo)
    add('memo', `The ${chain.chain} chain needs a memo or tag with the address (is_tag); without it the money is lost.`);
  else if (chain && !needsMemo(chain) && c.memo)
    add('memo', `The ${chain.chain} chain takes no memo or tag: check that the chain is the one meant.`);

  let fee: string | null = null;
  let arrives: string | null = null;
  if (!c.amount) add('amount', 'The amount is missing.');
  else if (status && chain) {
    const a = checkAmount(c.amount, limitsOf(status, chain));
    if (a.ok) ({ fee, arrives } = a);
    else add('amount', a.problem);
  } else {
    const basic = amountProblem(c.amount);
    if (basic) add('amount', `The amount ${basic}.`);
  }

  if (c.reference.length > MAX_REFERENCE) add('reference', `The reference is longer than ${MAX_REFERENCE} characters.`);

  // The contract's own schema last: whatever it refuses that the checks above did not name.
  const parsed = WithdrawalInput.safeParse({
    currency: c.currency,
    chain: c.chain,
    address: c.address,
    amount: c.amount,
    ...(c.memo ? { memo: c.memo } : {}),
  });
  if (!parsed.success) {
    for (const issue of parsed.error.issues) {
      const field = String(issue.path[0] ?? 'row') as PayoutField;
      if (!out.some((p) => p.field === field))
        out.push({
          field: (PAYOUT_COLUMNS as readonly string[]).includes(field) ? field : 'row',
          message: `The ${field}: ${issue.message}.`,
        });
    }
  }
  return { problems: out, fee: out.length ? null : fee, arrives: out.length ? null : arrives };
}

/** Same destination (currency, chain, address, memo), same amount (as a number: "10" is "10.00") and same reference. */
function duplicateKey(c: Record<PayoutField, string>): string {
  const amount = isDecimalString(c.amount) ? fmt(dec(c.amount)) : c.amount;
  return JSON.stringify([c.currency, c.chain, c.address, c.memo, amount, c.reference]);
}

export function checkRows(rows: readonly RawRow[], columns: number, ctx: CheckContext): { rows: CheckedRow[]; totals: PayoutTotal[] } {
  const firstSeen = new Map<string, number>();
  const checked: CheckedRow[] = rows.map((r) => {
    const { problems, fee, arrives } = rowProblems(r, columns, ctx);
    const key = duplicateKey(r.cells);
    const earlier = r.fieldCount === columns ? firstSeen.get(key) : undefined;
    if (earlier !== undefined) {
      problems.push({
        field: 'row',
        message: `Same destination, amount and reference as row ${earlier}: a second payment? Remove one, or give each its own reference.`,
      });
    } else if (r.fieldCount === columns) firstSeen.set(key, r.row);
    return {
      row: r.row,
      line: r.line,
      ...r.cells,
      fee: problems.length ? null : fee,
      arrives: problems.length ? null : arrives,
      problems,
      duplicate_of: earlier ?? null,
    };
  });

  // The day's remaining limit is per currency, every chain together: the rows share it in file order.
  const spent = new Map<string, Dec>();
  for (const r of checked) {
    if (r.problems.length) continue;
    const left = dec(ctx.statuses.find((s) => s.currency === r.currency)!.withdraw_day_limit_remain);
    const total = (spent.get(r.currency) ?? new Dec(0)).plus(dec(r.amount));
    if (total.gt(left)) {
      r.problems.push({
        field: 'amount',
        message: `With the rows above it, this file withdraws ${fmt(total)} ${r.currency}: more than the ${fmt(left)} left of today's limit.`,
      });
      r.fee = null;
      r.arrives = null;
    } else spent.set(r.currency, total);
  }

  const totals = new Map<string, { amount: Dec; fee: Dec; count: number }>();
  for (const r of checked) {
    if (r.problems.length) continue;
    const t = totals.get(r.currency) ?? { amount: new Dec(0), fee: new Dec(0), count: 0 };
    totals.set(r.currency, { amount: t.amount.plus(dec(r.amount)), fee: t.fee.plus(dec(r.fee!)), count: t.count + 1 });
  }
  return {
    rows: checked,
    totals: [...totals].map(([currency, t]) => ({ currency, amount: fmt(t.amount), fee: fmt(t.fee), count: t.count })),
  };
}
