import { QueryClient } from '@tanstack/react-query';
import { screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { createDesk } from '../../desk/DeskProvider.tsx';
import { fakeDesk } from '../../testkit/fakeDesk.ts';
import { baseAnswers } from '../../testkit/fixtures.ts';
import { renderRoutes } from '../../testkit/renderPage.tsx';
import OverviewPage from './OverviewPage.tsx';
import { prefetchOverview } from './prefetch.ts';

describe('the first paint of a start', () => {
  const start = (hash: string) => {
    const fake = fakeDesk(baseAnswers());
    const qc = new QueryClient();
    // Not awaited: the test reads what was asked at once, as the window's first script does (main.tsx).
    void prefetchOverview(qc, createDesk(fake.api), hash);
    return fake;
  };

  it("asks for the Overview's last known and current total before the page's code has loaded", () => {
    for (const hash of ['', '#/', '#/overview']) {
      const fake = start(hash);
      // The page draws only once the profile is known (KeyedPage): asked with the figures, not after the shell renders.
      expect(fake.calls.profileCurrent).toEqual([{}]);
      expect(fake.calls.lastKnown).toEqual([{ channel: 'totalBalance', request: { currency: 'USDT' } }]);
      expect(fake.calls.totalBalance).toEqual([{ currency: 'USDT' }]);
    }
  });

  it('asks in the valuation currency the address names, and nothing for another page', () => {
    expect(start('#/overview?currency=BTC').calls.totalBalance).toEqual([{ currency: 'BTC' }]);
    expect(start('#/overview?currency=XYZ').calls.totalBalance).toEqual([{ currency: 'USDT' }]);
    const other = start('#/withdrawals');
    expect(other.count('lastKnown') + other.count('totalBalance')).toBe(0);
  });

  it('does not ask the exchange a second time when the page mounts', async () => {
    const fake = fakeDesk(baseAnswers());
    const desk = createDesk(fake.api);
    const qc = new QueryClient({ defaultOptions: { queries: { retry: false } } });
    void prefetchOverview(qc, desk, '#/overview');
    // The answer is in before the page's code is (the usual order: a local call against a chunk to load).
    await new Promise((r) => setTimeout(r, 10));
    expect(fake.count('totalBalance')).toBe(1);
    renderRoutes([{ path: '/*', element: <OverviewPage /> }], '/overview', desk, qc);
    expect(await screen.findByTestId('total-amount')).toHaveProperty('textContent', '1,234,567.5');
    await new Promise((r) => setTimeout(r, 50));
    expect(fake.count('totalBalance')).toBe(1);
  });
});
