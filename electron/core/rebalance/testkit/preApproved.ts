import { newOrderId } from '../../writes/ids.ts';
import { buildBody, KINDS, signerOf } from '../../writes/inputs.ts';
import { batchWrites, type Approved } from '../batch.ts';
import type { Plan } from '../planner.ts';

// A plan's rows as an approved batch would carry them, for tests and the benchmark of the runner alone:
// the rows DeskApprovals.draftBatch would make (one id each, the exact body), without operators. The
// desk itself never runs a batch that the governance store did not approve (rebalance/service.ts).

export function preApproved(plan: Plan, planId: string, by = 'test', approvedAt = Date.now()): Approved {
  const rows = batchWrites(plan, planId).map(({ write, note }) => {
    const ref = newOrderId();
    const signer = signerOf(write);
    return { ref, kind: write.kind, body: buildBody(write, KINDS[write.kind].idField ? ref : null), note, ...(signer ? { signer } : {}) };
  });
  return { rows, signatures: [], by, approved_at: approvedAt };
}
