import type { LoadStatus, MatrixRow, SubAccountDetail } from '../../../shared/balances.ts';
import type { SubAccountEntry } from './matrix.ts';
import type { BalanceStore } from './store.ts';

// A sub-account's page: its figures from the load the matrix shows (with where they came from), and its
// alert rules and alerts from the profile's store.

export function detailOf(
  uid: string,
  e: SubAccountEntry | undefined,
  row: MatrixRow | null,
  status: LoadStatus,
  store: BalanceStore,
  defaultThreshold: string,
): SubAccountDetail {
  return {
    uid,
    name: e?.name ?? '',
    fetched_at: status.fetched_at,
    source: status.source,
    error: status.error,
    row,
    spot: e?.spot ? { available: e.spot.available ?? {}, ...(e.spot.locking ? { locking: e.spot.locking } : {}) } : null,
    margin: e?.margin ?? [],
    futures: e?.futures ?? {},
    cross_margin: e?.cross ?? null,
    risk_threshold: store.thresholds().get(uid) ?? defaultThreshold,
    floors: store.floors(uid).map((f) => ({ currency: f.currency, floor: f.floor })),
    alerts: store.activeAlerts(uid),
  };
}
