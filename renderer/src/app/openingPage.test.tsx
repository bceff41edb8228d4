import { QueryClientProvider } from '@tanstack/react-query';
import { act, render, screen } from '@testing-library/react';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { describe, expect, it } from 'vitest';
import { createDesk, DeskProvider } from '../desk/DeskProvider.tsx';
import OverviewPage from '../features/overview/OverviewPage.tsx';
import { prefetchOverview } from '../features/overview/prefetch.ts';
import { fakeDesk } from '../testkit/fakeDesk.ts';
import { baseAnswers } from '../testkit/fixtures.ts';
import { testQueryClient } from '../testkit/renderPage.tsx';
import { pageRoutes } from './router.tsx';

// main.tsx: a start on the Overview loads the page's code and asks its figures before React renders,
// so that the router's first render draws the total, not the shell alone and then, after a lazy load
// of code that is already here, everything again (issue 25).
describe('the page a start opens on', () => {
  it("is drawn with its figures in the router's first render when its code is already loaded", async () => {
    const fake = fakeDesk(baseAnswers());
    const desk = createDesk(fake.api);
    const qc = testQueryClient();
    await prefetchOverview(qc, desk, '#/overview');
    const router = createMemoryRouter(pageRoutes({ overview: OverviewPage }), { initialEntries: ['/overview'] });
    // One synchronous render, no waiting for a lazy route.
    act(() => {
      render(
        <DeskProvider desk={desk}>
          <QueryClientProvider client={qc}>
            <RouterProvider router={router} />
          </QueryClientProvider>
        </DeskProvider>,
      );
    });
    expect(screen.getByTestId('total-amount').textContent).toBe('1,234,567.5');
    expect(screen.getByRole('navigation', { name: 'Pages' })).toBeTruthy();
  });
});
