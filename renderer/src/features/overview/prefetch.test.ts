import { QueryClient } from '@tanstack/react-query';
import { describe, expect, it } from 'vitest';
import { createDesk } from '../../desk/DeskProvider.tsx';
import { fakeDesk } from '../../testkit/fakeDesk.ts';
import { baseAnswers } from '../../testkit/fixtures.ts';
import { prefetchOverview } from './prefetch.ts';

describe('the first paint of a start', () => {
  const start = (hash: string) => {
    const fake = fakeDesk(baseAnswers());
    const qc = new QueryClient();
    prefetchOverview(qc, createDesk(fake.api), hash);
    return fake;
  };

  it("asks for the Overview's last known and current total before the page's code has loaded", () => {
    for (const hash of ['', '#/', '#/overview']) {
      const fake = start(hash);
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
});
