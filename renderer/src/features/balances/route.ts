import { useSyncExternalStore } from 'react';

// The feature's own addresses: #/sub-accounts (the matrix) and #/sub-accounts/<uid> (one sub-account).
// Read straight from the fragment so a deep link survives a reload.

export const SUB_ACCOUNTS_ROUTE = 'sub-accounts';

function subscribe(fn: () => void): () => void {
  window.addEventListener('hashchange', fn);
  return () => window.removeEventListener('hashchange', fn);
}

function uidFromHash(): string | null {
  const m = /^#\/?sub-accounts\/(\d{1,20})$/.exec(window.location.hash);
  return m ? m[1]! : null;
}

function incidentFromHash(): string | null {
  const m = /^#\/?sub-accounts\/(\d{1,20})\/incident$/.exec(window.location.hash);
  return m ? m[1]! : null;
}

export function useSubAccountUid(): string | null {
  return useSyncExternalStore(subscribe, uidFromHash);
}

/** #/sub-accounts/<uid>/incident: the incident page of one sub-account. */
export function useIncidentUid(): string | null {
  return useSyncExternalStore(subscribe, incidentFromHash);
}

export function isSubAccountsHash(name: string): boolean {
  return name === SUB_ACCOUNTS_ROUTE || name.startsWith(`${SUB_ACCOUNTS_ROUTE}/`);
}

export const subAccountHref = (uid: string) => `#/${SUB_ACCOUNTS_ROUTE}/${uid}`;
export const incidentHref = (uid: string) => `#/${SUB_ACCOUNTS_ROUTE}/${uid}/incident`;

/** The Transfers page with a main/sub transfer form pre-filled for this sub-account. */
export const transferHref = (uid: string) => `#/transfers?new=main_sub&sub=${uid}`;
