import { QueryClientProvider } from '@tanstack/react-query';
import { act, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { describe, expect, it } from 'vitest';
import { createDesk, DeskProvider } from '../desk/DeskProvider.tsx';
import { HOST_DOWN } from '../desk/webDesk.ts';
import { fakeDesk, type FakeDesk } from '../testkit/fakeDesk.ts';
import { APPROVALS, baseAnswers, OPEN_VAULT, SANDBOX_PROFILE, withdrawalRow } from '../testkit/fixtures.ts';
import { testQueryClient } from '../testkit/renderPage.tsx';
import { pageRoutes } from './router.tsx';
import type { EventPayload } from '../../../shared/ipc.ts';
import { timeOfDay } from '../components/localTime.ts';

const BUCKET = {
  key: '',
  queued: 0,
  in_flight: 0,
  used: 0,
  remaining: 80,
  limit: 80,
  window_sec: 10,
  paused_until_ms: null,
  pause_reason: null,
} as const satisfies EventPayload<'rateLimits'>['buckets'][number];

const WITHDRAWAL = withdrawalRow({ id: 'w1', amount: '15', address: 'TAddr0000000000000000000000000001' });

function renderApp(fake: FakeDesk, at: string) {
  const router = createMemoryRouter(pageRoutes(), { initialEntries: [at] });
  render(
    <DeskProvider desk={createDesk(fake.api)}>
      <QueryClientProvider client={testQueryClient()}>
        <RouterProvider router={router} />
      </QueryClientProvider>
    </DeskProvider>,
  );
  return router;
}

describe('the shell', () => {
  it('names the pages that exist in the sidebar and marks the one in view', async () => {
    renderApp(fakeDesk(baseAnswers()), '/activity');
    const nav = await screen.findByRole('navigation', { name: 'Pages' });
    expect(
      within(nav)
        .getAllByRole('link')
        .map((a) => a.textContent),
    ).toEqual([
      'Overview',
      'Sub-accounts',
      'Withdrawals',
      'Deposits',
      'Transfers',
      'Orders',
      'Payouts',
      'Small balances',
      'Rebalance',
      'Approvals',
      'Statements',
      'Journal',
      'Activity',
      'Settings',
    ]);
    await waitFor(() => expect(within(nav).getByRole('link', { name: 'Activity' }).getAttribute('aria-current')).toBe('page'));
    expect(within(nav).getByRole('link', { name: 'Overview' }).getAttribute('aria-current')).toBeNull();
    expect(await screen.findByRole('heading', { level: 1, name: 'Activity' })).toBeTruthy();
  });

  it('sends an unknown address to the Overview', async () => {
    const router = renderApp(fakeDesk(baseAnswers()), '/nowhere');
    await waitFor(() => expect(router.state.location.pathname).toBe('/overview'));
  });

  it('keeps the profile, lock state, connection and request budget in view, and the withdrawals on their way as the history cache counts them', async () => {
    const fake = fakeDesk(baseAnswers());
    renderApp(fake, '/overview');
    const status = await screen.findByRole('contentinfo', { name: 'Status' });
    await waitFor(() => expect(within(status).getByTestId('profile').textContent).toContain('Sandbox'));
    expect(within(status).getByTestId('lock-state').textContent).toBe('No passphrase set');
    await waitFor(() => expect(within(status).getByTestId('connection').textContent).toMatch(/^The Sandbox answered \d+ s ago$/));
    expect(within(status).getByTestId('rate-limits').textContent).toBe('Requests within limits');
    await waitFor(() => expect(within(status).getByTestId('withdrawals-in-flight').textContent).toBe('0 withdrawals on their way'));
    fake.answers.historyStatus = { ...(fake.answers.historyStatus as object), in_flight: 3 } as never;
    act(() => fake.emit('history', { changes: [], in_flight: 3, unsent: 0 }));
    await waitFor(() => expect(within(status).getByTestId('withdrawals-in-flight').textContent).toBe('3 withdrawals on their way'));
    act(() =>
      fake.emit('rateLimits', {
        buckets: [
          { ...BUCKET, key: 'key-1|wallet_80:GET /wallet/total_balance', queued: 2, used: 77, remaining: 3 },
          { ...BUCKET, key: 'key-1|spot_other:GET /spot/accounts', limit: 200, used: 5, remaining: 195 },
          { ...BUCKET, key: 'uid:7|withdraw:POST /withdrawals', limit: 1, window_sec: 3, in_flight: 1, remaining: 1 },
        ],
      }),
    );
    // Each bucket in use, the fullest first; past two a count, and every one of them in the tooltip.
    const budget = within(status).getByTestId('rate-limits');
    expect(budget.textContent).toBe('/wallet/total_balance 77/80, 2 waiting · /spot/accounts 5/200 · 1 more');
    expect(budget.getAttribute('title')).toBe('/wallet/total_balance 77/80, 2 waiting\n/spot/accounts 5/200\n/withdrawals 0/1');
  });

  it("reads the core's link and budget when it mounts, so a window that sent no call of its own is not left waiting", async () => {
    const pausedUntil = Date.now() + 8_000;
    const fake = fakeDesk({
      ...baseAnswers(),
      deskStatus: {
        // The core's background reads were answered an hour ago; a 429 paused the wallet reads with nothing queued.
        link: { last_answer_at: Date.now() - 3_600_000, last_failure: null },
        rate_limits: {
          buckets: [
            {
              ...BUCKET,
              key: 'key-1|wallet_other:GET /wallet/withdrawals',
              limit: 200,
              used: 6,
              remaining: 194,
              paused_until_ms: pausedUntil,
              pause_reason: 'too_many_requests',
            },
          ],
        },
      },
    });
    renderApp(fake, '/journal');
    const status = await screen.findByRole('contentinfo', { name: 'Status' });
    await waitFor(() => expect(within(status).getByTestId('connection').textContent).toBe('The Sandbox answered 1 h ago'));
    expect(within(status).getByTestId('rate-limits').textContent).toBe(
      `/wallet/withdrawals 6/200, paused until ${timeOfDay(pausedUntil)}: the exchange answered 429 Too Many Requests`,
    );
    // Any answer the core sees moves the age, whoever asked.
    act(() => fake.emit('link', { last_answer_at: Date.now(), last_failure: null }));
    expect(within(status).getByTestId('connection').textContent).toMatch(/^The Sandbox answered \d+ s ago$/);
    // A request that got no answer at all, newer than the last answer, is said as such.
    act(() => fake.emit('link', { last_answer_at: Date.now() - 60_000, last_failure: { at: Date.now(), title: 'No answer in time' } }));
    expect(within(status).getByTestId('connection').textContent).toMatch(/^The Sandbox did not answer \(No answer in time, \d+ s ago\)$/);
  });

  it('says the Sandbox moves play money, and says nothing of the kind for a live profile', async () => {
    const fake = fakeDesk(baseAnswers());
    renderApp(fake, '/overview');
    expect((await screen.findByTestId('play-money')).textContent).toContain('play money');
    const live = fakeDesk({ ...baseAnswers(), profileCurrent: { ...SANDBOX_PROFILE, environment: 'live', name: 'Treasury' } });
    renderApp(live, '/overview');
    await waitFor(() => expect(screen.getAllByTestId('profile').at(-1)!.textContent).toContain('Treasury'));
    expect(screen.getAllByTestId('play-money')).toHaveLength(1);
  });

  it('names the Sandbox when it does not answer, and says when it was restarted', async () => {
    const fake = fakeDesk(baseAnswers());
    renderApp(fake, '/overview');
    const connection = await screen.findByTestId('connection');
    await waitFor(() => expect(connection.textContent).toContain('The Sandbox answered'));
    act(() => fake.emit('sandbox', { state: 'down', at: Date.now() }));
    expect(connection.textContent).toBe('The Sandbox stopped; restarting it…');
    fake.answers.totalBalance = new Error('The exchange did not answer.');
    act(() => fake.emit('sandbox', { state: 'restarted', at: Date.now() }));
    await waitFor(() =>
      expect(connection.textContent).toMatch(/^The Sandbox did not answer \(No connection, \d+ s ago\) · Sandbox restarted \d+ s ago$/),
    );
    // Screen readers hear the news once, without the ticking age.
    expect(within(screen.getByRole('contentinfo', { name: 'Status' })).getByRole('status').textContent).toBe('The Sandbox did not answer');
  });

  it("blames the desk's host, not the Sandbox, when the host itself is gone", async () => {
    const fake = fakeDesk(baseAnswers());
    renderApp(fake, '/overview');
    const connection = await screen.findByTestId('connection');
    await waitFor(() => expect(connection.textContent).toContain('The Sandbox answered'));
    fake.answers.totalBalance = () => ({ ok: false, error: { kind: 'network', message: HOST_DOWN } }) as never;
    await userEvent.click(screen.getByRole('button', { name: 'BTC' }));
    await waitFor(() => expect(connection.textContent).toMatch(/^The desk's host does not answer \(\d+ s ago\): is it still running\?$/));
  });

  it('covers the window with the lock screen while the vault is locked', async () => {
    renderApp(
      fakeDesk({ ...baseAnswers(), vaultStatus: { ...OPEN_VAULT, locked: true, backend: 'passphrase', passphrase_set: true } }),
      '/overview',
    );
    expect(await screen.findByRole('dialog', { name: 'Treasury Desk is locked' })).toBeTruthy();
    expect(screen.queryByRole('navigation', { name: 'Pages' })).toBeNull();
  });

  it('gives focus to the page heading when the desk is unlocked', async () => {
    const fake = fakeDesk({ ...baseAnswers(), vaultStatus: { ...OPEN_VAULT, locked: true, backend: 'passphrase', passphrase_set: true } });
    renderApp(fake, '/settings');
    await screen.findByRole('dialog', { name: 'Treasury Desk is locked' });
    act(() => fake.emit('vault', { ...OPEN_VAULT, locked: false, backend: 'passphrase', passphrase_set: true }));
    const heading = await screen.findByRole('heading', { level: 1, name: 'Settings' });
    await waitFor(() => expect(document.activeElement).toBe(heading));
  });

  it('moves between pages by the sidebar', async () => {
    const router = renderApp(fakeDesk(baseAnswers()), '/overview');
    await userEvent.click(await screen.findByRole('link', { name: 'Settings' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/settings'));
    expect(await screen.findByRole('heading', { level: 1, name: 'Settings' })).toBeTruthy();
  });

  it('asks for the first withdrawals at the click on their link, while the page loads, and the page shows that answer', async () => {
    const first = { filters: {}, sort: { by: 'time', dir: 'desc' }, offset: 0, limit: 100 };
    const fake = fakeDesk({
      ...baseAnswers(),
      withdrawalsList: { total: 1, rows: [WITHDRAWAL], next_cursor: null } as never,
    });
    const router = renderApp(fake, '/activity');
    const link = await screen.findByRole('link', { name: 'Withdrawals' });
    expect(fake.count('withdrawalsList')).toBe(0);
    // The same event that starts the navigation: the page's code has not loaded, let alone rendered.
    fireEvent.click(link);
    expect(fake.calls.withdrawalsList).toEqual([first]);
    await waitFor(() => expect(router.state.location.pathname).toBe('/withdrawals'));
    // jsdom lays out no rows: the list's count is what shows the answer reached the page.
    expect(await screen.findByText('1 records')).toBeTruthy();
    // The page's own first ask found that answer: the desk was asked once.
    expect(fake.calls.withdrawalsList).toEqual([first]);
  });

  it('shows the freeze on every page, and asks the confirmation window for one from the Freeze button or Ctrl+Shift+F', async () => {
    const fake = fakeDesk({ ...baseAnswers(), approvalsFreeze: { ticket: 't-1', title: 'Freeze the desk' } });
    const router = renderApp(fake, '/overview');
    const banner = await screen.findByTestId('freeze-banner');
    await userEvent.keyboard('{Control>}{Shift>}F{/Shift}{/Control}');
    await waitFor(() => expect(fake.calls.approvalsFreeze).toEqual([{ reason: 'freeze shortcut' }]));
    expect(await within(banner).findByText('Sign the freeze in the confirmation window.')).toBeTruthy();
    await userEvent.click(within(banner).getByRole('button', { name: 'Freeze' }));
    await waitFor(() => expect(fake.count('approvalsFreeze')).toBe(2));

    // Once signed, the core's approvals event brings the freeze to whatever page is in view.
    fake.answers.approvalsState = { ...APPROVALS, frozen: { by: 'Alice', at: 1_700_000_000_000, reason: 'suspicious login' } };
    await router.navigate('/settings');
    act(() => fake.emit('approvals', {}));
    await waitFor(() =>
      expect(screen.getByTestId('freeze-banner').textContent).toMatch(
        /^Frozen by Alice at .*\(suspicious login\): no write leaves until a quorum unfreezes/,
      ),
    );
    expect(within(screen.getByTestId('freeze-banner')).queryByRole('button', { name: 'Freeze' })).toBeNull();
  });
});
