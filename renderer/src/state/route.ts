import { useSyncExternalStore } from 'react';
import { isSubAccountsHash } from '../features/balances/route.ts';

export type Route = 'overview' | 'sub-accounts' | 'activity' | 'withdrawals' | 'deposits' | 'transfers' | 'settings';
const ROUTES: Route[] = ['overview', 'sub-accounts', 'activity', 'withdrawals', 'deposits', 'transfers', 'settings'];

function current(): Route {
  const name = window.location.hash.replace(/^#\/?/, '');
  if (isSubAccountsHash(name)) return 'sub-accounts';
  return (ROUTES as string[]).includes(name) ? (name as Route) : 'overview';
}

function subscribe(fn: () => void): () => void {
  window.addEventListener('hashchange', fn);
  return () => window.removeEventListener('hashchange', fn);
}

/** The page shown, from the address's fragment, so that back and forward work as in any app. */
export function useRoute(): Route {
  return useSyncExternalStore(subscribe, current);
}
