import type { BatchPayload } from '../../../shared/api/batch.ts';
import { isManagementKind, managementSummary } from '../../../shared/api/subAccounts.ts';
import { aRole, Role } from '../../../shared/api/roles.ts';
import { roleChange, type Proposal, type ProposalWhat, type RequestPayload } from '../governance/state.ts';

// One line for a request, a batch or a governance change, as the Approvals page and a policy's replay
// name it.

export function batchSummary(b: BatchPayload): string {
  const kinds = [...new Set(b.rows.map((r) => r.kind.replace(/_/g, ' ')))].join(' and ');
  const totals = b.totals.map((t) => `${t.amount} ${t.currency}`).join(', ');
  const from = b.source.file ? ` from ${b.source.file}` : '';
  return `${b.title}: ${b.rows.length} ${kinds}${b.rows.length === 1 ? '' : 's'}${from}, ${totals}`;
}

/** `nameOf` names an operator by id (a role change and a removal name whom they change). */
export function summarize(p: Proposal, req: RequestPayload | null, nameOf: (id: string) => string = (id) => id): string {
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
  return changeSummary(p, nameOf);
}

/** A governance change in words, one sentence per kind: a kind added to ProposalWhat fails to compile until it has one. */
function changeSummary(p: Proposal, nameOf: (id: string) => string): string {
  const o = JSON.parse(p.payload) as { name?: string; id?: string; role?: string; currency?: string; chain?: string; address?: string };
  const what: ProposalWhat = p.what;
  switch (what) {
    case 'add_operator':
      return `add operator ${o.name ?? ''}${o.role ? ` as ${aRole(Role.parse(o.role))}` : ''}`;
    case 'remove_operator':
      return `remove operator ${nameOf(o.id ?? '')}`;
    case 'set_role': {
      const { id, role } = roleChange(p.payload);
      return `make ${nameOf(id)} ${aRole(role)}`;
    }
    case 'remove_address':
      return `remove ${o.address ?? ''} (${o.currency ?? ''} on ${o.chain ?? ''}) from the address book`;
    case 'policy':
      return `new policy for profile ${p.profile ?? ''}`;
    case 'unfreeze':
      return 'unfreeze the desk';
    case 'request':
    case 'batch':
      return `${what} ${p.ref}`;
    default:
      return unknownKind(what);
  }
}

function unknownKind(what: never): string {
  return `a change of an unknown kind (${String(what)})`;
}
