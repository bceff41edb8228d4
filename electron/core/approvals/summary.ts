import type { BatchPayload } from '../../../shared/api/batch.ts';
import { isManagementKind, managementSummary } from '../../../shared/api/subAccounts.ts';
import type { Proposal, RequestPayload } from '../governance/state.ts';

// One line for a request, a batch or a governance change, as the Approvals page and a policy's replay
// name it.

export function batchSummary(b: BatchPayload): string {
  const kinds = [...new Set(b.rows.map((r) => r.kind.replace(/_/g, ' ')))].join(' and ');
  const totals = b.totals.map((t) => `${t.amount} ${t.currency}`).join(', ');
  const from = b.source.file ? ` from ${b.source.file}` : '';
  return `${b.title}: ${b.rows.length} ${kinds}${b.rows.length === 1 ? '' : 's'}${from}, ${totals}`;
}

export function summarize(p: Proposal, req: RequestPayload | null): string {
  if (req && isManagementKind(req.kind)) return managementSummary(req.kind, req.body);
  if (req) {
    const b = req.body;
    return req.kind === 'withdrawal'
      ? `${String(b.amount)} ${String(b.currency)} to ${String(b.address)} on ${String(b.chain)}`
      : req.kind === 'uid_transfer'
        ? `${String(b.amount)} ${String(b.currency)} to user ${String(b.receive_uid)}`
        : req.kind === 'sub_own_transfer'
          ? `${String(b.amount)} ${String(b.currency)} from ${String(b.from)} to ${String(b.to)} of sub-account ${req.signer ?? '?'}, signed by its key`
          : req.kind === 'spot_order'
            ? `${String(b.side)} ${String(b.amount)} ${String(b.currency_pair)} ${b.type === 'limit' ? `at ${String(b.price)}` : 'at market'}${req.signer ? ` for sub-account ${req.signer}` : ''}`
            : req.kind === 'spot_cancel'
              ? `cancel order ${String(b.order_id)} of ${String(b.currency_pair)}${req.signer ? ` for sub-account ${req.signer}` : ''}`
              : req.kind === 'spot_cancel_all'
                ? `cancel every open ${String(b.currency_pair)} order${req.signer ? ` for sub-account ${req.signer}` : ''}`
                : `${req.kind.replace(/_/g, ' ')} of ${String(b.amount)} ${String(b.currency)}`;
  }
  const o = JSON.parse(p.payload) as { name?: string; id?: string };
  switch (p.what) {
    case 'add_operator':
      return `add operator ${o.name ?? ''}`;
    case 'remove_operator':
      return `remove operator ${o.id ?? ''}`;
    case 'policy':
      return `new policy for profile ${p.profile ?? ''}`;
    default:
      return 'unfreeze the desk';
  }
}
