import type { Path } from 'react-hook-form';
import { z } from 'zod';
import { PlanRequest, Template } from '../../../../shared/rebalance.ts';
import { linesOf, type Row } from './targets.ts';

// The targets form: the rows in scope, the sweep's ceiling and a template's name, checked by the
// contract's schema of the request the pressed button sends (PlanRequest, Template). The request's paths
// ("lines.1.target.share") are named by the form's ("rows.3.share"), for zod's issues and the core's alike.

export interface TargetsValues {
  rows: Row[];
  ceiling: string;
  template_name: string;
}
export const TARGETS_DEFAULTS: TargetsValues = { rows: [], ceiling: '', template_name: '' };

export type Action = 'plan' | 'equalize' | 'sweep' | 'template';

const FIGURES = ['amount', 'share', 'floor', 'ceiling'] as const;

/** The request's field paths that name one of the form's fields: a line is the k-th included row. */
export function renamedOf(v: TargetsValues): Record<string, Path<TargetsValues>> {
  const out: Record<string, Path<TargetsValues>> = { 'preset.ceiling': 'ceiling', name: 'template_name' };
  let k = 0;
  v.rows.forEach((r, j) => {
    if (!r.included) return;
    for (const f of FIGURES) out[`lines.${k}.target.${f}`] = `rows.${j}.${f}` as const;
    k += 1;
  });
  return out;
}

/** What the pressed button sends, made from the form's values. */
export function requestOf(action: Action, currency: string, v: TargetsValues) {
  const accounts = v.rows.filter((r) => r.included).map((r) => r.account);
  switch (action) {
    case 'plan':
      return { currency, lines: linesOf(v.rows) };
    case 'equalize':
      return { currency, preset: { kind: 'equalize' as const }, accounts };
    case 'sweep':
      return { currency, preset: { kind: 'sweep' as const, ceiling: v.ceiling.trim() }, accounts };
    case 'template':
      return { name: v.template_name.trim(), currency, lines: linesOf(v.rows) };
  }
}

const CHECK = { plan: PlanRequest, equalize: PlanRequest, sweep: PlanRequest, template: Template };

/** The form's schema for the button pressed now (read when the check runs: the buttons share one form). */
export function targetsFormSchema(action: () => Action, currency: () => string) {
  return z.custom<TargetsValues>().superRefine((v, ctx) => {
    const act = action();
    const checked = CHECK[act].safeParse(requestOf(act, currency(), v));
    if (checked.success) return;
    const renamed = renamedOf(v);
    const said = new Set<string>();
    for (const issue of checked.error.issues) {
      // A problem with no field of its own (no account chosen) is said for the whole form.
      const field = renamed[issue.path.join('.')] ?? 'root';
      if (said.has(field)) continue;
      said.add(field);
      ctx.addIssue({ code: 'custom', path: field.split('.'), message: issue.message });
    }
  });
}
