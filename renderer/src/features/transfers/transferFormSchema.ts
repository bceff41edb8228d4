import { z } from 'zod';
import { WriteRequest, type WriteInput } from '../../../../shared/api/writes.ts';
import { overdraws } from './drawBalance.ts';
import { EMPTY, toWrite, type TransferFormKind, type Values } from './transferWrite.ts';

const Strings = z.object(Object.fromEntries(Object.keys(EMPTY).map((k) => [k, z.string()])) as Record<keyof Values, z.ZodString>);

/**
 * A transfer form's schema: the contract's WriteRequest on the write the form makes, each issue on the
 * field of the same name (the write's fields are the form's), then the amount against the balance it
 * draws from; its output is the write as the core takes it.
 */
export function transferFormSchema(form: TransferFormKind, available: () => string | null) {
  return Strings.superRefine((raw, ctx) => {
    const v = raw as Values;
    const said = new Set<string>();
    const say = (field: string, message: string) => {
      if (said.has(field)) return;
      said.add(field);
      ctx.addIssue({ code: 'custom', path: [field], message });
    };
    const r = WriteRequest.safeParse(toWrite(form, v));
    // An issue of the whole input is "from and to must differ": the field that has to change is "to".
    if (!r.success) for (const issue of r.error.issues) say(String(issue.path[1] ?? 'to'), issue.message);
    if (said.has('amount')) return;
    const over = overdraws(v.amount.trim(), available(), v.currency);
    if (over) say('amount', over);
  }).transform((v): WriteInput => toWrite(form, v as Values));
}
