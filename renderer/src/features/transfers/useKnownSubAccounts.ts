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
  const locked = new Set(useLockedSubAccounts(enabled).map((k) => k.uid));
  // A locked sub-account takes no transfer in or out (SUB_ACCOUNT_LOCKED): it is not offered.
  return (matrix.data?.rows ?? []).filter((r) => !locked.has(r.uid)).map((r) => ({ uid: r.uid, name: r.name }));
}

/** The sub-accounts locked at the exchange, which transfer and rebalance forms leave out. */
export function useLockedSubAccounts(enabled: boolean): KnownSubAccount[] {
  const managed = useDeskQuery('subAccountsManaged', {}, { enabled });
  return (managed.data ?? []).filter((a) => a.locked).map((a) => ({ uid: a.user_id, name: a.login_name }));
}

export const LOCKED_WHY = 'the exchange refuses transfers into or out of a locked sub-account (SUB_ACCOUNT_LOCKED): unlock it first';

/** What the form says under a uid field: the chosen sub-account's name, or that the desk does not know it. */
export function subAccountHint(uid: string, known: readonly KnownSubAccount[], locked: readonly KnownSubAccount[] = []): string {
  const u = uid.trim();
  if (u && locked.some((k) => k.uid === u)) return `sub-account ${u} is locked: ${LOCKED_WHY}`;
  if (known.length === 0) return 'type its uid (no sub-account list loaded yet)';
  if (!u) return `pick one of ${known.length} sub-accounts, or type a uid`;
  const hit = known.find((k) => k.uid === u);
  if (hit) return hit.name ? `${hit.name} (${hit.uid})` : `sub-account ${hit.uid}`;
  return `${u} is not among the ${known.length} sub-accounts the desk loaded; the exchange checks it`;
}
