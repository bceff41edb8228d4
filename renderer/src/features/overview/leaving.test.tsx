import { act, screen } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { pageRoutes } from '../../app/router.tsx';
import { createDesk } from '../../desk/DeskProvider.tsx';
import { fakeDesk } from '../../testkit/fakeDesk.ts';
import { baseAnswers } from '../../testkit/fixtures.ts';
import { renderRoutes, testQueryClient } from '../../testkit/renderPage.tsx';
import OverviewPage from './OverviewPage.tsx';
import { prefetchOverview } from './prefetch.ts';

// The figures (and the charts beside them) are the page's costly part: each drawing of them counted here.
const drawn = vi.hoisted(() => ({ figures: 0 }));
vi.mock('../balances/index.ts', async (original) => {
  const real = await original<typeof import('../balances/index.ts')>();
  return {
    ...real,
    OverviewBalances: (props: Parameters<typeof real.OverviewBalances>[0]) => {
      drawn.figures++;
      return real.OverviewBalances(props);
    },
  };
});

describe('leaving the Overview', () => {
  afterEach(() => vi.unstubAllGlobals());

  it("does not draw its figures again while the next page's code loads", async () => {
    // The window never goes idle here: the charts' own drawing (whenIdle.ts) stays out of the count.
    vi.stubGlobal('requestIdleCallback', () => 0);
    const fake = fakeDesk(baseAnswers());
    const desk = createDesk(fake.api);
    const qc = testQueryClient();
    await prefetchOverview(qc, desk, '#/overview');
    // A next page whose code is still on its way: the router draws the page being left meanwhile.
    const routes = pageRoutes({ overview: OverviewPage });
    routes[0]!.children!.push({ path: 'loading', lazy: () => new Promise<never>(() => {}) });
    const router = renderRoutes(routes, '/overview', desk, qc);
    await screen.findByTestId('total-amount');
    // Every read of the page answered and drawn.
    await act(() => new Promise((r) => setTimeout(r, 50)));
    const before = drawn.figures;
    expect(before).toBeGreaterThan(0);
    await act(async () => {
      void router.navigate('/loading');
      await new Promise((r) => setTimeout(r, 50));
    });
    expect(router.state.navigation.state).toBe('loading');
    expect(screen.getByTestId('total-amount')).toBeTruthy();
    expect(drawn.figures).toBe(before);
  });
});
