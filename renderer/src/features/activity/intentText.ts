import { labelWords } from '../../../../shared/api/labels.ts';
import type { IntentView } from '../../../../shared/ipc.ts';
import { groupDigits } from '../../../../shared/money.ts';
import { isManagementKind, managementSummary } from '../../../../shared/api/subAccounts.ts';

export const KIND_NAMES: Record<IntentView['kind'], string> = {
  withdrawal: 'Withdrawal',
  main_sub_transfer: 'Main/sub transfer',
  own_transfer: 'Own-account transfer',
  sub_to_sub_transfer: 'Sub-to-sub transfer',
  sub_own_transfer: 'Sub-account own-account transfer',
  uid_transfer: 'UID transfer',
  spot_order: 'Spot order',
  spot_cancel: 'Order cancellation',
  spot_cancel_all: 'Cancel all orders of a pair',
  small_balance_convert: 'Small balance to GT',
  sub_account_lock: 'Sub-account lock',
  sub_account_unlock: 'Sub-account unlock',
  sub_account_key_create: 'Sub-account key creation',
  sub_account_key_delete: 'Sub-account key disabled',
  sub_account_create: 'Sub-account creation',
};

// What each state means for the operator: the journal's proof, in words.
export const STATE_NAMES: Record<IntentView['state'], string> = {
  pending_approval: 'Awaiting your approval',
  approved: 'Approved, queued',
  in_flight: 'Sent, awaiting the answer',
  unconfirmed: 'Outcome not known yet',
  accepted: 'Accepted by the exchange',
  done: 'Done',
  refused: 'Refused by the exchange',
  needs_attention: 'Needs your attention',
  settled: 'Settled by you',
  cancelled: 'Cancelled',
};

/** States whose reason is a problem to read as one; a cancellation or a settlement is the operator's own word. */
export const TROUBLE_STATES: ReadonlySet<IntentView['state']> = new Set(['refused', 'needs_attention', 'unconfirmed']);

export function summary(i: IntentView): string {
  const b = i.body;
  if (isManagementKind(i.kind)) return managementSummary(i.kind, b);
  const amount = typeof b.amount === 'string' ? `${groupDigits(b.amount)} ${b.currency ?? ''}` : '';
  if (i.kind === 'withdrawal') return `${amount} to ${b.address} (${b.chain})`;
  if (i.kind === 'main_sub_transfer') return `${amount} ${b.direction === 'to' ? 'to' : 'from'} sub-account ${b.sub_account}`;
  if (i.kind === 'sub_to_sub_transfer') return `${amount} from ${b.sub_account_from} to ${b.sub_account_to}`;
  if (i.kind === 'uid_transfer') return `${amount} to UID ${b.receive_uid}`;
  if (i.kind === 'sub_own_transfer') return `${amount} from ${b.from} to ${b.to} of sub-account ${i.signer ?? '?'} (signed by its key)`;
  const sub = i.signer ? ` for sub-account ${i.signer}` : '';
  if (i.kind === 'small_balance_convert') return `convert ${amount} to GT${sub || ' for the main account'} (signed by its key)`;
  if (i.kind === 'spot_order')
    return `${b.side} ${groupDigits(String(b.amount))} ${b.currency_pair} ${b.type === 'limit' ? `at ${b.price}` : 'at market'} (${b.text})${sub}`;
  if (i.kind === 'spot_cancel') return `cancel order ${b.order_id} of ${b.currency_pair}${sub}`;
  if (i.kind === 'spot_cancel_all') return `cancel every open ${b.currency_pair} order${b.side ? ` (${b.side})` : ''}${sub}`;
  return `${amount} from ${b.from} to ${b.to}`;
}

/** The first letter up: reasons are journaled in lower case ("cancelled by the operator"). */
export function capitalised(s: string): string {
  return s ? s[0]!.toUpperCase() + s.slice(1) : s;
}

/**
 * How a write ended or why it stopped, in words: the exchange's label as its sentence (§7), else the
 * desk's reason; the label itself and the exchange's own text are `raw`, for a "Details" disclosure.
 */
export function outcomeWords(i: Pick<IntentView, 'label' | 'reason'>): { words: string; raw: string[] } {
  if (!i.label) return { words: capitalised(i.reason ?? ''), raw: [] };
  const words = labelWords(i.label);
  return { words, raw: [`Label: ${i.label}`, ...(i.reason && i.reason !== words ? [i.reason] : [])] };
}
