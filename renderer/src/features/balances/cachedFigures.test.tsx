import { screen, waitFor } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { ACCOUNT_KINDS } from '../../../../shared/balances.ts';
import { fakeDesk } from '../../testkit/fakeDesk.ts';
import { baseAnswers } from '../../testkit/fixtures.ts';
import { renderWithDesk, testQueryClient } from '../../testkit/renderPage.tsx';
import { SubAccountDetail } from './SubAccountDetail.tsx';
import { SubAccountsPage } from './SubAccountsPage.tsx';
import { askFirstBlock, BLOCK, FIRST_VIEW } from './matrixQuery.ts';
import { createDesk } from '../../desk/DeskProvider.tsx';
import { dateTime } from '../../components/localTime.ts';

// On start the core answers the matrix from its cache (the last complete load of an earlier run) while
// it reads the exchange. The page says so in words, with the figures' time and age, until the
// exchange's figures arrive; then the usual "Fetched" line. An operator must never take them for live.

const MIN = 60_000;
const cell = { amounts: { USDT: '10' }, value: '10', unpriced: [] };
const row = {
  uid: '10000101',
  name: 'alpha',
  cells: Object.fromEntries(ACCOUNT_KINDS.map((k) => [k, cell])),
  total: '60',
  cross_risk: null,
  margin_risk: null,
  alerts: 0,
};
const page = (source: 'cache' | 'exchange', fetchedAt: number, error: string | null = null) => ({
  status: { state: 'ready', loaded: 0, total: 15, fetched_at: fetchedAt, source, error, requests: 15, unread: [] },
  quote: 'USDT',
  total_rows: 1,
  offset: 0,
  rows: [row],
  column_totals: Object.fromEntries(ACCOUNT_KINDS.map((k) => [k, '10'])),
  grand_total: '60',
});
const two = (n: number) => String(n).padStart(2, '0');
/** Today's figures by the clock alone; figures from before midnight (a run just after it) with their date. */
const hhmm = (ms: number) => {
  const d = new Date(ms);
  const hm = `${two(d.getHours())}:${two(d.getMinutes())}`;
  return d.toDateString() === new Date().toDateString() ? hm : `${d.getFullYear()}-${two(d.getMonth() + 1)}-${two(d.getDate())} ${hm}`;
};

describe('the Sub-accounts page with figures from the cache', () => {
  it('is asked, with the profile the page waits for, before the window draws anything', async () => {
    const fake = fakeDesk({ ...baseAnswers(), balancesMatrix: page('cache', Date.now() - 5 * MIN) as never });
    const asked = askFirstBlock(testQueryClient(), createDesk(fake.api));
    // A window opened on #/sub-accounts (main.tsx): the matrix page draws only once the profile is known
    // (app/KeyedPage.tsx), so both reads leave at once instead of the profile's after the shell renders.
    expect(Object.keys(fake.calls).sort()).toEqual(['balancesMatrix', 'profileCurrent']);
    expect(fake.calls.balancesMatrix).toEqual([{ ...FIRST_VIEW, offset: 0, limit: BLOCK }]);
    await asked;
  });

  it('says they are the last known figures, their time and age, then the fetched line once the exchange answered', async () => {
    const cachedAt = Date.now() - 7 * MIN - 5_000;
    const fake = fakeDesk({ ...baseAnswers(), balancesMatrix: page('cache', cachedAt) as never });
    renderWithDesk(fake, <SubAccountsPage />);
    const line = await screen.findByTestId('matrix-fetched-at');
    await waitFor(() => expect(line.textContent).toBe(`Last known figures from ${hhmm(cachedAt)} (7 minutes ago) · refreshing…`));
    expect(screen.getByRole('table', { name: 'Sub-account balances (last known figures, not live)' })).toBeTruthy();

    const freshAt = Date.now();
    fake.answers.balancesMatrix = page('exchange', freshAt) as never;
    fake.emit('balancesProgress', { scope: 'sub_accounts', loaded: 15, total: 15, done: true, error: null });
    await waitFor(() => expect(screen.getByTestId('matrix-fetched-at').textContent).toBe(`Fetched ${dateTime(freshAt)}`));
    expect(screen.queryByText(/Last known figures/)).toBeNull();
    expect(screen.getByRole('table', { name: 'Sub-account balances' })).toBeTruthy();
  });

  it('asks again while it shows cached figures, with no event telling it the load ended', async () => {
    const cachedAt = Date.now() - 2 * 60 * MIN - 3 * MIN;
    let calls = 0;
    const fake = fakeDesk({
      ...baseAnswers(),
      balancesMatrix: (() => (++calls < 3 ? page('cache', cachedAt) : page('exchange', Date.now()))) as never,
    });
    renderWithDesk(fake, <SubAccountsPage />);
    await waitFor(() =>
      expect(screen.getByTestId('matrix-fetched-at').textContent).toMatch(/^Last known figures from .+ \(2 hours ago\) · refreshing…$/),
    );
    await waitFor(() => expect(screen.getByTestId('matrix-fetched-at').textContent).toMatch(/^Fetched /), { timeout: 5_000 });
  });

  it('keeps the cached figures with the failed refresh said in words', async () => {
    const cachedAt = Date.now() - 3 * 24 * 60 * MIN;
    const fake = fakeDesk({
      ...baseAnswers(),
      balancesMatrix: page('cache', cachedAt, 'The exchange could not be reached at nowhere.test: no such host was found.') as never,
    });
    renderWithDesk(fake, <SubAccountsPage />);
    await waitFor(() =>
      expect(screen.getByTestId('matrix-fetched-at').textContent).toMatch(
        /^Last known figures from \d{4}-\d\d-\d\d \d\d:\d\d \(3 days ago\) · not refreshed: The exchange could not be reached at nowhere\.test/,
      ),
    );
    expect(screen.getByText(/Total of 1 sub-account/)).toBeTruthy();
  });
});

describe("a sub-account's page with figures from the cache", () => {
  it('says so above its figures', async () => {
    const cachedAt = Date.now() - 12 * MIN;
    const base = baseAnswers();
    const fake = fakeDesk({
      ...base,
      balancesSubAccount: { ...(base.balancesSubAccount as object), uid: '10000101', fetched_at: cachedAt, source: 'cache', row } as never,
    });
    renderWithDesk(fake, <SubAccountDetail uid="10000101" />);
    expect((await screen.findByTestId('detail-fetched-at')).textContent).toBe(
      `Last known figures from ${hhmm(cachedAt)} (12 minutes ago) · refreshing…`,
    );
  });
});
