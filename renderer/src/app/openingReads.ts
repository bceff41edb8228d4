import type { DataRouter } from 'react-router';

// A start asks for the figures of the page it opens on before React draws anything (main.tsx). The Shell
// fetches the code of the page likely next only once that page has shown them (or said why not): the
// window is idle while it waits for them, and that code (zod, the forms) would otherwise be fetched and
// run ahead of the figures (docs/performance.md §Opening the desk). The core holds its background work back for them too (the
// journal's reconciliation, the history's first sync, the exchange's load of kept figures): the window
// says when they are shown (main.tsx, windowPainted). A start on another page asked nothing and waits
// for nothing.

let shown: () => void = () => {};
let opening: Promise<void> = Promise.resolve();

/** The start asked for the opening page's figures: the page calls openingShown() once it shows them. */
export function expectOpeningFigures(): void {
  opening = new Promise<void>((resolve) => (shown = resolve));
}

/** The opening page shows its first figures (or its error): what waited for them may start. */
export function openingShown(): void {
  shown();
}

/** Settles once the opening page has shown its first figures (at once when the start asked none). */
export function openingFigures(): Promise<void> {
  return opening;
}

/**
 * An operator who leaves the opening page before it showed its figures is done with them too: what waits
 * for them (the core's background work, the next page's code) is not held to the bound.
 */
export function leavingEndsOpening(router: Pick<DataRouter, 'state' | 'subscribe'>): void {
  const openedAt = router.state.location.pathname;
  const stop = router.subscribe((state) => {
    if (state.location.pathname === openedAt) return;
    openingShown();
    stop();
  });
}
