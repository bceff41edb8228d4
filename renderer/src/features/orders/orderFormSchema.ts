import { z } from 'zod';
import { orderProblems } from '../../../../shared/api/orderRules.ts';
import { STP_ACTS, TIME_IN_FORCE, type CurrencyPair } from '../../../../shared/api/orders.ts';
import { SpotOrderInput } from '../../../../shared/api/writes.ts';

export type Tif = keyof typeof TIME_IN_FORCE;

/** What the order form holds: every field as typed (an empty label or stp means "none"). */
export interface OrderValues {
  side: 'buy' | 'sell';
  type: 'limit' | 'market';
  account: 'spot' | 'margin';
  amount: string;
  price: string;
  time_in_force: Tif;
  label: string;
  stp_act: '' | keyof typeof STP_ACTS;
}

export const ORDER_DEFAULTS: OrderValues = {
  side: 'buy',
  type: 'limit',
  account: 'spot',
  amount: '',
  price: '',
  time_in_force: 'gtc',
  label: '',
  stp_act: '',
};

/** A market order is immediate: it offers only the time-in-force values that say so. */
export function tifsOf(type: OrderValues['type']): Tif[] {
  return (Object.keys(TIME_IN_FORCE) as Tif[]).filter((k) => type === 'limit' || k === 'ioc' || k === 'fok');
}

/** The contract's input for the form's values: only the fields the order takes. */
export function orderInput(v: OrderValues, pair: CurrencyPair, sub?: string): z.input<typeof SpotOrderInput> {
  return {
    currency_pair: pair.id,
    side: v.side,
    type: v.type,
    account: v.account,
    amount: v.amount,
    time_in_force: tifsOf(v.type).includes(v.time_in_force) ? v.time_in_force : 'ioc',
    ...(v.type === 'limit' ? { price: v.price } : {}),
    ...(v.label ? { label: v.label } : {}),
    ...(v.stp_act ? { stp_act: v.stp_act } : {}),
    ...(sub ? { sub_uid: sub } : {}),
  };
}

const Values = z.object({
  side: z.enum(['buy', 'sell']),
  type: z.enum(['limit', 'market']),
  account: z.enum(['spot', 'margin']),
  amount: z.string(),
  price: z.string(),
  time_in_force: z.enum(Object.keys(TIME_IN_FORCE) as [Tif, ...Tif[]]),
  label: z.string(),
  stp_act: z.union([z.literal(''), z.enum(Object.keys(STP_ACTS) as [keyof typeof STP_ACTS, ...(keyof typeof STP_ACTS)[]])]),
});

/**
 * The form's schema: the pair's rules (precision, minimums, tradable), all of one field's problems in one
 * message as the operator reads them, then the contract's own SpotOrderInput for what the rules do not
 * cover (the label's characters); its output is the order's input as the core takes it.
 */
export function orderFormSchema(pair: CurrencyPair, sub?: string) {
  return Values.superRefine((v, ctx) => {
    const said = new Set<string>();
    if (v.amount === '') {
      ctx.addIssue({ code: 'custom', path: ['amount'], message: 'enter an amount' });
      said.add('amount');
    } else {
      for (const field of ['amount', 'price'] as const) {
        const problems = orderProblems(
          { side: v.side, type: v.type, amount: v.amount, ...(v.type === 'limit' ? { price: v.price } : {}) },
          pair,
        )
          .filter((p) => p.field === field)
          .map((p) => p.message);
        if (problems.length) {
          ctx.addIssue({ code: 'custom', path: [field], message: problems.join('; ') });
          said.add(field);
        }
      }
    }
    const checked = SpotOrderInput.safeParse(orderInput(v, pair, sub));
    if (checked.success) return;
    for (const issue of checked.error.issues) {
      const field = String(issue.path[0] ?? 'amount');
      if (said.has(field)) continue;
      said.add(field);
      ctx.addIssue({ code: 'custom', path: [field], message: issue.message });
    }
  }).transform((v) => orderInput(v, pair, sub));
}
