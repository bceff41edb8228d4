import { screen } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { askFirstBlock } from '../features/balances/matrixQuery.ts';
import { createDesk } from '../desk/DeskProvider.tsx';
import OverviewPage from '../features/overview/OverviewPage.tsx';
import { prefetchOverview } from '../features/overview/prefetch.ts';
import { fakeDesk } from '../testkit/fakeDesk.ts';
import { baseAnswers, cachedMatrix } from '../testkit/fixtures.ts';
import { renderRoutes, testQueryClient } from '../testkit/renderPage.tsx';
import { openingPage } from './openingPage.ts';
import { pageRoutes } from './router.tsx';

// main.tsx: a start on the Overview loads the page's code and asks its figures before React renders,
// so that the router's first render draws the total, not the shell alone and then, after a lazy load
// of code that is already here, everything again (docs/performance.md §Opening the desk).
describe('the page a start opens on', () => {
  it("is drawn with its figures in the router's first render when its code is already loaded", async () => {
    const fake = fakeDesk(baseAnswers());
    const desk = createDesk(fake.api);
    const qc = testQueryClient();
    await prefetchOverview(qc, desk, '#/overview');
    // One synchronous render, no waiting for a lazy route.
    renderRoutes(pageRoutes({ overview: OverviewPage }), '/overview', desk, qc);
    expect(screen.getByTestId('total-amount').textContent).toBe('1,234,567.5');
    expect(screen.getByRole('navigation', { name: 'Pages' })).toBeTruthy();
  });

  it("is the matrix's code for a start on it, drawn with the rows its box shows in the first render", async () => {
    const loaded = await openingPage('#/sub-accounts');
    expect(Object.keys(loaded)).toEqual(['sub-accounts']);
    expect(Object.keys(await openingPage('#/overview'))).toEqual(['overview']);
    expect(await openingPage('#/withdrawals')).toEqual({});

    // The first block of a matrix of 1,000.
    const fake = fakeDesk({ ...baseAnswers(), balancesMatrix: cachedMatrix(100, 1000) as never });
    const desk = createDesk(fake.api);
    const qc = testQueryClient();
    await askFirstBlock(qc, desk);
    // jsdom lays nothing out: the rows' box measures as its own style sets it, as in a browser.
    const height = vi.spyOn(HTMLElement.prototype, 'clientHeight', 'get').mockImplementation(function (this: HTMLElement) {
      return Number.parseFloat(this.style.height) || 0;
    });
    let dropped = 0;
    const watch = new MutationObserver((changes) => {
      for (const c of changes)
        for (const n of c.removedNodes) if (n instanceof HTMLElement && n.matches('[role="row"][data-uid]')) dropped++;
    });
    watch.observe(document.body, { childList: true, subtree: true });
    try {
      renderRoutes(pageRoutes(loaded), '/sub-accounts', desk, qc);
      expect(screen.getByTestId('grand-total').textContent).toBe('60,000');
      expect(screen.getByTestId('row-total-10000100').textContent).toBe('60');
      await new Promise((r) => setTimeout(r, 0));
      // Measured, the box shows the rows the first render drew: none was drawn out of view and taken away.
      expect(dropped).toBe(0);
      expect(document.querySelectorAll('[role="row"][data-uid]').length).toBeGreaterThan(10);
    } finally {
      watch.disconnect();
      height.mockRestore();
    }
  });
});
