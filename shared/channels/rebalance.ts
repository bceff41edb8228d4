import { z } from 'zod';
import { BatchView, PlanRequest, RebalancePlan, RebalanceScope, Template } from '../rebalance.ts';
import { CsvExport } from '../csvExport.ts';

// Rebalance (docs/rebalance.md): plans come from balances the core reads; a plan runs only as an approved batch.

export const rebalanceChannels = {
  /** The accounts a rebalance of one currency may include, with what each holds now. */
  rebalanceScope: {
    request: z.object({ currency: z.string().regex(/^[A-Z0-9]{1,16}$/, 'a currency such as USDT') }).strict(),
    response: RebalanceScope,
  },
  /** Plans from fresh balances; nothing is stored but the plan (for a draft), nothing is sent. */
  rebalancePlan: { request: PlanRequest, response: RebalancePlan },
  rebalanceTemplates: { request: z.object({}).strict(), response: z.array(Template) },
  /** Saves (or replaces, by name) a named set of targets. */
  rebalanceTemplateSave: { request: Template, response: z.array(Template) },
  rebalanceTemplateDelete: { request: z.object({ name: z.string().min(1).max(64) }).strict(), response: z.array(Template) },
  /** Drafts a computed plan as one batch: the confirmation window shows it for operators to sign. */
  rebalanceDraft: {
    request: z.object({ plan: z.string().regex(/^[A-Za-z0-9_-]{1,40}$/, 'a plan id') }).strict(),
    response: z.object({ ticket: z.string(), title: z.string(), ref: z.string() }),
  },
  /** The profile's rebalance batches not archived, newest first, with their progress and report. */
  rebalanceBatches: { request: z.object({}).strict(), response: z.array(BatchView) },
  /** Takes a finished (or rejected) batch off the page's list; its journal, approvals and report are kept. */
  rebalanceArchive: {
    request: z.object({ ref: z.string().min(1).max(64) }).strict(),
    response: z.object({ archived: z.literal(true) }),
  },
  /** Stops a batch between transfers: the rest is skipped, never sent. */
  rebalanceCancel: {
    request: z.object({ ref: z.string().min(1).max(64), reason: z.string().trim().min(1, 'say why').max(500) }).strict(),
    response: BatchView,
  },
  /** A paused batch: read the balances again and go on if they allow it. */
  rebalanceResume: { request: z.object({ ref: z.string().min(1).max(64) }).strict(), response: BatchView },
  rebalanceReport: {
    request: z.object({ ref: z.string().min(1).max(64) }).strict(),
    response: CsvExport,
  },
} as const;
