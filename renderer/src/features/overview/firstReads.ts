import { VALUATION_CURRENCIES, type ValuationCurrency } from '../../../../shared/api/valuation.ts';
import type { EarlyRead } from '../../desk/earlyReads.ts';

// What a start on the Overview reads first. Schema-free and React-free: the window's first script
// (renderer/src/opening.ts) imports it, and everything it imports is fetched and run before the first read.

/** The valuation currency of a start on the Overview (the address's, else USDT); null when the address names another page. */
export function overviewCurrency(hash: string): ValuationCurrency | null {
  const [path = '', search = ''] = hash.replace(/^#\/?/, '').split('?');
  if (path !== '' && path !== 'overview') return null;
  const asked = new URLSearchParams(search).get('currency') ?? 'USDT';
  return (VALUATION_CURRENCIES as readonly string[]).includes(asked) ? (asked as ValuationCurrency) : 'USDT';
}

/**
 * The reads the Overview's first paint waits for, which the core answers from the desk's own files before
 * its start-up (electron/core/startUp.ts): the profile (every page that reads the exchange is drawn only
 * once it is known, app/KeyedPage.tsx) and the last known total. The exchange's total is asked by the app
 * itself: it starts the core's start-up, whose work would otherwise run while the browser still fetches
 * the boot's files from the same process.
 */
export function overviewEarlyReads(hash: string): EarlyRead[] {
  const currency = overviewCurrency(hash);
  if (currency === null) return [];
  return [
    ['profileCurrent', {}],
    ['lastKnown', { channel: 'totalBalance', request: { currency } }],
  ];
}
