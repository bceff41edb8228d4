import { startTransition, useEffect, useState } from 'react';

// Work an operator does not wait for (the Overview's charts, the code of the page likely next) runs when
// the window is idle, one piece per idle period, so that a click on the sidebar never waits behind it
// (docs/performance.md §Opening the desk). A piece whose page is left before its turn never runs.

const waiting: Array<() => void> = [];
let scheduled = false;
/** The window is moving to another page: see holdIdleWork. */
let held = false;

/** At the latest after this, a piece runs even if the window never goes idle. */
const IDLE_TIMEOUT_MS = 3_000;

function onIdle(fn: () => void): void {
  if (typeof requestIdleCallback === 'function') requestIdleCallback(fn, { timeout: IDLE_TIMEOUT_MS });
  else setTimeout(fn, 1);
}

function pump(): void {
  if (scheduled || held || waiting.length === 0) return;
  scheduled = true;
  onIdle(() => {
    scheduled = false;
    if (held) return;
    waiting.shift()?.();
    pump();
  });
}

/**
 * Holds the pieces while the window moves to another page (the shell, while the router loads it): the
 * window is idle then, waiting for the next page's code and figures, and the page being left would load
 * and draw its charts in the time the next one needs to paint (docs/performance.md §Opening the desk). Leaving it cancels its pieces.
 */
export function holdIdleWork(hold: boolean): void {
  held = hold;
  pump();
}

/** Runs `fn` in an idle period of its own, after those queued before it (or before them, with `first`); answers a cancel. */
export function whenIdle(fn: () => void, opts: { first?: boolean } = {}): () => void {
  const piece = () => fn();
  if (opts.first) waiting.unshift(piece);
  else waiting.push(piece);
  pump();
  return () => {
    const i = waiting.indexOf(piece);
    if (i >= 0) waiting.splice(i, 1);
  };
}

/** Charts start only after the page has been shown this long: an operator who clicks on at once never waits for them. */
const QUIET_MS = 300;

/**
 * False until, after a quiet moment, the window has been idle twice: once to load `load` (a chart's code),
 * once to draw it. Each is a task of its own, and leaving the page before cancels what is left.
 * `load` must be the same function from render to render.
 */
export function useAfterIdle(load: () => Promise<unknown>): boolean {
  const [ready, setReady] = useState(false);
  useEffect(() => {
    let live = true;
    let cancel = () => {};
    const quiet = setTimeout(() => {
      cancel = whenIdle(() => {
        void load().then(() => {
          // As a transition: React draws the chart in slices that give way to the operator's input. A
          // plain update drew it in one task of 100-600 ms on a busy machine, and a click on the sidebar
          // during it, the next page's first rows with it, waited for the whole chart (docs/performance.md §Opening the desk).
          if (live) cancel = whenIdle(() => startTransition(() => setReady(true)));
        });
      });
    }, QUIET_MS);
    return () => {
      live = false;
      clearTimeout(quiet);
      cancel();
    };
  }, [load]);
  return ready;
}
