import { useSyncExternalStore } from 'react';

export type Route = 'overview' | 'withdrawals' | 'approvals' | 'activity' | 'settings';
const ROUTES: Route[] = ['overview', 'withdrawals', 'approvals', 'activity', 'settings'];

function current(): Route {
  const name = window.location.hash.replace(/^#\/?/, '');
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
