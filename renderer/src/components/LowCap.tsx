import { useDeskQuery } from '../desk/hooks.ts';

// The exchange's low-liquidity currencies (§4.1 getLowCapExchangeList): the API does not withdraw them.
// Flagged wherever a currency is shown or chosen. The core caches the list; the window keeps its copy
// fresh for as long (a list that changes rarely needs no refetch on every page view).

const LOW_CAP_FRESH_MS = 10 * 60_000;
export const LOW_CAP_WORDS = "Low liquidity: on the exchange's low-cap list, which the API does not withdraw";
/** Beside a currency in a withdrawal's currency choice, which it cannot be. */
export const LOW_CAP_CHOICE = 'low liquidity: the API does not withdraw it';

/** The low-cap currencies as a set (empty until read, or when the list cannot be read). */
export function useLowCap(): ReadonlySet<string> {
  const q = useDeskQuery('lowCapCurrencies', {}, { staleTimeMs: LOW_CAP_FRESH_MS, refetchIntervalMs: LOW_CAP_FRESH_MS });
  return new Set(q.data?.currencies ?? []);
}

/** A small mark beside a low-cap currency's name; nothing for any other. */
export function LowCapFlag({ currency, lowCap }: { currency: string; lowCap: ReadonlySet<string> }) {
  if (!lowCap.has(currency)) return null;
  return (
    <span className="badge low-cap" title={LOW_CAP_WORDS} aria-label={LOW_CAP_WORDS} data-testid="low-cap">
      low cap
    </span>
  );
}
