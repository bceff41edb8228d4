import { MATRIX_PAGE_MAX } from '../../../../shared/balances.ts';
import { useDeskQuery } from '../../desk/hooks.ts';

// The sub-accounts a transfer form offers to pick from: those of the balances matrix's last load (a
// load lists every sub-account, with its login name). Opening the form with nothing loaded starts the load.

export interface KnownSubAccount {
  uid: string;
  name: string;
}

export function useKnownSubAccounts(enabled: boolean): KnownSubAccount[] {
  const matrix = useDeskQuery('balancesMatrix', { quote: 'USDT', sort: 'uid', limit: MATRIX_PAGE_MAX }, { enabled });
  return (matrix.data?.rows ?? []).map((r) => ({ uid: r.uid, name: r.name }));
}

/** What the form says under a uid field: the chosen sub-account's name, or that the desk does not know it. */
export function subAccountHint(uid: string, known: readonly KnownSubAccount[]): string {
  const u = uid.trim();
  if (known.length === 0) return 'type its uid (no sub-account list loaded yet)';
  if (!u) return `pick one of ${known.length} sub-accounts, or type a uid`;
  const hit = known.find((k) => k.uid === u);
  if (hit) return hit.name ? `${hit.name} (${hit.uid})` : `sub-account ${hit.uid}`;
  return `${u} is not among the ${known.length} sub-accounts the desk loaded; the exchange checks it`;
}
