import { z } from 'zod';
import { WithdrawalInput } from '../../../../shared/api/writes.ts';
import { checkAmount, type Limits } from '../../../../shared/withdrawCheck.ts';

/** What the withdraw form holds: the destination is a picked "address|memo" or, with pick "new", typed. */
export interface WithdrawValues {
  currency: string;
  chain: string;
  pick: string;
  new_address: string;
  memo: string;
  amount: string;
}

export const WITHDRAW_DEFAULTS: WithdrawValues = { currency: '', chain: '', pick: '', new_address: '', memo: '', amount: '' };

/** The field that holds the destination address: the typed one, or the picked row. */
export const addressField = (v: Pick<WithdrawValues, 'pick'>): 'new_address' | 'pick' => (v.pick === 'new' ? 'new_address' : 'pick');

/** The contract's input for the form's values. */
export function withdrawalInput(v: WithdrawValues): z.input<typeof WithdrawalInput> {
  const address = v.pick === 'new' ? v.new_address.trim() : (v.pick.split('|')[0] ?? '');
  const memo = v.pick === 'new' ? v.memo : (v.pick.split('|')[1] ?? '');
  return { currency: v.currency, chain: v.chain, address, amount: v.amount, ...(memo ? { memo } : {}) };
}

/**
 * The form's schema: the chain's limits and fee (shared/withdrawCheck.ts, as the payouts import checks
 * each row), a memo where the chain needs one, then the contract's WithdrawalInput; its output is the
 * withdrawal's input as the core takes it.
 */
export function withdrawFormSchema(rules: () => { limits: Limits | null; memoNeeded: boolean }) {
  return z
    .object({
      currency: z.string().min(1, 'choose a currency'),
      chain: z.string().min(1, 'choose a chain'),
      pick: z.string().min(1, 'choose an address'),
      new_address: z.string(),
      memo: z.string(),
      amount: z.string(),
    })
    .superRefine((v, ctx) => {
      // The chain's rules load after the form is made: they are read when the check runs.
      const { limits, memoNeeded } = rules();
      const said = new Set<string>();
      const say = (field: string, message: string) => {
        if (said.has(field)) return;
        said.add(field);
        ctx.addIssue({ code: 'custom', path: [field], message });
      };
      const input = withdrawalInput(v);
      if (limits && v.amount) {
        const check = checkAmount(v.amount, limits);
        if (!check.ok) say('amount', check.problem);
      }
      if (memoNeeded && !input.memo) say(v.pick === 'new' ? 'memo' : 'pick', 'this chain needs a memo or tag');
      const checked = WithdrawalInput.safeParse(input);
      if (checked.success) return;
      for (const issue of checked.error.issues) {
        const field = String(issue.path[0] ?? 'amount');
        say(field === 'address' ? addressField(v) : field, issue.message);
      }
    })
    .transform(withdrawalInput);
}
