import { useEffect, useState } from 'react';
import type { MainBalances, SubAccountDetail } from '../../../../shared/balances.ts';
import { useDeskQuery } from '../../desk/hooks.ts';
import { availableIn, type Holdings } from './drawBalance.ts';
import type { Source } from './transferWrite.ts';

// The balance a transfer draws from, from the balances feature's reads: the main account's own accounts
// (balancesMain, read fresh) or a sub-account's §2.8 records from the last load (balancesSubAccount).
// A sub-account's figures from the desk's cache (an earlier run's load, shown while the first load of
// this run is under way) are never offered as "available": the form waits for the exchange's.

export interface Drawn {
  /** null: the desk cannot know this account's balance (or has not read it yet). */
  available: string | null;
  fetchedAt: number | null;
  loading: boolean;
  error: Error | null;
  refetch: () => void;
}

function mainHoldings(m: MainBalances): Holdings {
  return { spot: Object.fromEntries(m.spot.map((r) => [r.currency.toUpperCase(), r.available])), margin: m.margin, futures: m.futures };
}

function subHoldings(d: SubAccountDetail): Holdings | null {
  if (d.source !== 'exchange') return null;
  return { spot: d.spot?.available ?? {}, margin: d.margin, futures: d.futures };
}

export function useDrawBalance(source: Source, currency: string): Drawn {
  const isMain = source.owner === 'main';
  const isSub = !isMain && /^\d{1,20}$/.test(source.owner);
  const main = useDeskQuery('balancesMain', { quote: 'USDT' }, { enabled: isMain });
  const [waiting, setWaiting] = useState(false);
  // A sub-account's records come from the matrix's load; until one from the exchange has ended, ask again
  // every few seconds (not after it failed: the error is shown, and Retry asks again).
  const sub = useDeskQuery(
    'balancesSubAccount',
    { uid: isSub ? source.owner : '0', quote: 'USDT' },
    { enabled: isSub, ...(waiting ? { refetchIntervalMs: 2000 } : {}) },
  );
  const notLoaded = isSub && sub.data !== undefined && sub.data.source !== 'exchange' && sub.data.error === null;
  useEffect(() => setWaiting(notLoaded), [notLoaded]);
  const q = isMain ? main : sub;
  const holdings = isMain ? (main.data ? mainHoldings(main.data) : null) : isSub && sub.data ? subHoldings(sub.data) : null;
  const fetchedAt = isMain ? (main.data?.fetched_at ?? null) : sub.data?.source === 'exchange' ? sub.data.fetched_at : null;
  const loadFailed = isSub && sub.data?.source !== 'exchange' && sub.data?.error ? new Error(sub.data.error) : null;
  return {
    available: holdings && currency.trim() ? availableIn(holdings, source, currency) : null,
    fetchedAt,
    loading: (isMain || isSub) && (q.isPending || notLoaded),
    error: (isMain || isSub) && q.error ? q.error : loadFailed,
    refetch: () => void q.refetch(),
  };
}
