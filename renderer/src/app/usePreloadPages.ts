import { useEffect } from 'react';
import { PAGES } from './routes.ts';

/** How long after the first paint the other pages' code is fetched, when the browser has no idle callback. */
const FALLBACK_DELAY_MS = 2000;

/**
 * Each page is its own chunk, loaded on first visit: the first paint does not wait for code it does not
 * show. Once the window is idle, the other pages' code is fetched, so that opening Withdrawals later costs
 * its data and its rows, not a download and a parse (issue 25: first render of 100,000 withdrawals).
 */
export function usePreloadPages(): void {
  useEffect(() => {
    const load = () => {
      for (const p of PAGES) void p.load().catch(() => {});
    };
    if (typeof window.requestIdleCallback === 'function') {
      const id = window.requestIdleCallback(load, { timeout: FALLBACK_DELAY_MS * 2 });
      return () => window.cancelIdleCallback(id);
    }
    const t = setTimeout(load, FALLBACK_DELAY_MS);
    return () => clearTimeout(t);
  }, []);
}
