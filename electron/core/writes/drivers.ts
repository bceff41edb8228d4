import type { IntentView } from '../journal/intents.ts';
import type { Journal } from '../journal/journal.ts';

// Per-journal registries shared by every executor over one journal in this process (executor.ts).

/** Who drives each intent of a journal, across every executor over it in this process. */
const drivers = new WeakMap<Journal, Map<string, Promise<IntentView>>>();

export function driversOf(journal: Journal): Map<string, Promise<IntentView>> {
  let m = drivers.get(journal);
  if (!m) drivers.set(journal, (m = new Map()));
  return m;
}

/**
 * Governance approval times of the intents handed over by dispatchApproved, per journal (every executor
 * over it in this process). The journal's own approval record cannot say "earlier": handing over a request
 * approved before a restart, or in a restored folder, journals that record now.
 */
export const governedAt = new WeakMap<Journal, Map<string, number>>();

export function governedAtOf(journal: Journal): Map<string, number> {
  let m = governedAt.get(journal);
  if (!m) governedAt.set(journal, (m = new Map()));
  return m;
}
