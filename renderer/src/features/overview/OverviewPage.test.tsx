import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { fakeDesk } from '../../testkit/fakeDesk.ts';
import { baseAnswers, TOTAL } from '../../testkit/fixtures.ts';
import { renderWithDesk } from '../../testkit/renderPage.tsx';
import OverviewPage from './OverviewPage.tsx';
import { dateTime } from '../../components/localTime.ts';

describe('Overview page', () => {
  it('shows the total grouped, and each account type with its exact amount', async () => {
    const fake = fakeDesk(baseAnswers());
    renderWithDesk(fake, <OverviewPage />, { at: '/overview' });
    expect(await screen.findByTestId('total-amount')).toHaveProperty('textContent', '1,234,567.5');
    const table = screen.getByTestId('breakdown-table');
    expect(within(table).getByText('Spot').closest('tr')!.textContent).toContain('1,200,000');
    expect(within(table).getByText('Perpetual futures').closest('tr')!.textContent).toContain('34,567.5');
  });

  it('takes the valuation currency from the address and puts the choice back into it', async () => {
    const fake = fakeDesk({
      ...baseAnswers(),
      totalBalance: (r) => ({ ...TOTAL, total: { ...TOTAL.total, currency: r.currency ?? 'USDT' } }),
    });
    const { router } = renderWithDesk(fake, <OverviewPage />, { at: '/overview?currency=BTC' });
    await waitFor(() => expect(screen.getByTestId('total-currency').textContent).toBe('BTC'));
    expect(fake.calls.totalBalance![0]).toEqual({ currency: 'BTC' });
    expect(screen.getByRole('button', { name: 'BTC' }).getAttribute('aria-pressed')).toBe('true');
    await userEvent.click(screen.getByRole('button', { name: 'USD' }));
    await waitFor(() => expect(router.state.location.search).toBe('?currency=USD'));
    await waitFor(() => expect(screen.getByTestId('total-currency').textContent).toBe('USD'));
  });

  it('shows a failure as a sentence with a way to try again', async () => {
    const fake = fakeDesk({
      ...baseAnswers(),
      totalBalance: {
        ok: false,
        error: { kind: 'exchange', label: 'SERVER_ERROR', message: 'The exchange failed inside; try again shortly.' },
      } as never,
    });
    renderWithDesk(fake, <OverviewPage />, { at: '/overview' });
    const alert = await screen.findByRole('alert');
    expect(alert.textContent).toContain('SERVER_ERROR');
    expect(alert.textContent).toContain('The exchange failed inside');
    fake.answers.totalBalance = TOTAL;
    await userEvent.click(within(alert).getByRole('button', { name: 'Try again' }));
    expect(await screen.findByTestId('total-amount')).toHaveProperty('textContent', '1,234,567.5');
  });

  it('asks the exchange again for the total, the main accounts and the snapshots when Refresh is pressed', async () => {
    const fake = fakeDesk(baseAnswers());
    renderWithDesk(fake, <OverviewPage />, { at: '/overview' });
    await screen.findByTestId('total-amount');
    await waitFor(() => expect(fake.count('balancesMain')).toBeGreaterThan(0));
    const before = { total: fake.count('totalBalance'), main: fake.count('balancesMain'), snapshots: fake.count('balancesSnapshots') };
    await userEvent.click(screen.getByTestId('overview-refresh'));
    await waitFor(() => expect(fake.count('totalBalance')).toBeGreaterThan(before.total));
    await waitFor(() => expect(fake.count('balancesMain')).toBeGreaterThan(before.main));
    await waitFor(() => expect(fake.count('balancesSnapshots')).toBeGreaterThan(before.snapshots));
  });

  it('says when the total was fetched only once it is known, never "fetched —", and builds no Intl formatter', async () => {
    // The fresh total arrives while the operator may be clicking elsewhere: the locale's data loaded by a
    // first Intl date formatter would land in that click (docs/performance.md §Opening the desk).
    const made = vi.fn();
    vi.spyOn(Intl, 'DateTimeFormat').mockImplementation(made);
    vi.spyOn(Date.prototype, 'toLocaleString').mockImplementation(made);
    vi.spyOn(Date.prototype, 'toLocaleTimeString').mockImplementation(made);
    const fake = fakeDesk(baseAnswers());
    renderWithDesk(fake, <OverviewPage />, { at: '/overview' });
    await screen.findByTestId('total-amount');
    await waitFor(() => expect(fake.count('balancesSnapshots')).toBeGreaterThan(0));
    expect(screen.queryByTestId('total-fetched-at')).toBeNull();
    expect(document.body.textContent).not.toMatch(/fetched\s*—/);
    const at = Date.UTC(2026, 10, 26, 12, 30);
    fake.answers.balancesSnapshots = [{ at, currency: 'USDT', amount: '1234567.5' }];
    await userEvent.click(screen.getByTestId('overview-refresh'));
    const shown = (await screen.findByTestId('total-fetched-at')).textContent;
    expect(shown).toContain(`Total fetched ${dateTime(at)}`);
    expect(shown).toMatch(/Total fetched \d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2} /);
    expect(made).not.toHaveBeenCalled();
    vi.restoreAllMocks();
  });

  it('lists each fetch of the total on its own, two Refreshes within one minute as two', async () => {
    const at = Date.UTC(2026, 10, 26, 12, 30, 5);
    const kept = [{ at, currency: 'USDT', amount: '1234567.5' }];
    const fake = fakeDesk({ ...baseAnswers(), balancesSnapshots: () => kept });
    renderWithDesk(fake, <OverviewPage />, { at: '/overview' });
    await screen.findByTestId('recent-snapshots');
    // The core keeps a snapshot at each fetch (e2e/balances.e2e.ts counts them); the page lists each.
    kept.push({ at: at + 20_000, currency: 'USDT', amount: '1234567.5' });
    await userEvent.click(screen.getByTestId('overview-refresh'));
    await waitFor(() => expect(within(screen.getByTestId('recent-snapshots')).getAllByRole('row')).toHaveLength(3));
    const rows = within(screen.getByTestId('recent-snapshots')).getAllByRole('row').slice(1);
    expect(rows.map((r) => r.textContent)).toEqual([`${dateTime(at + 20_000)}1,234,567.5`, `${dateTime(at)}1,234,567.5`]);
  });
});

describe('Overview page: the last known figures first', () => {
  const KNOWN_AT = Date.parse('2026-11-20T09:30:00Z');
  const KNOWN = { ...TOTAL, total: { ...TOTAL.total, amount: '1000000' } };

  it('paints the figures of the last start at once, says how old they are, then shows the exchange answer', async () => {
    let answer!: (v: typeof TOTAL) => void;
    const fake = fakeDesk({
      ...baseAnswers(),
      lastKnown: (r: { channel: string }) => (r.channel === 'totalBalance' ? { at: KNOWN_AT, data: KNOWN } : null),
      totalBalance: () => new Promise<typeof TOTAL>((resolve) => (answer = resolve)),
    });
    renderWithDesk(fake, <OverviewPage />, { at: '/overview' });
    expect(await screen.findByTestId('total-amount')).toHaveProperty('textContent', '1,000,000');
    const note = screen.getByTestId('total-last-known');
    expect(note.textContent).toContain('Last known figures');
    expect(note.textContent).toMatch(/days? ago/);
    expect(note.textContent).toContain('asking the exchange');
    expect(screen.getByTestId('total-amount').closest('[data-last-known]')).not.toBeNull();

    answer(TOTAL);
    await waitFor(() => expect(screen.getByTestId('total-amount').textContent).toBe('1,234,567.5'));
    expect(screen.queryByTestId('total-last-known')).toBeNull();
    expect(screen.getByTestId('total-amount').closest('[data-last-known]')).toBeNull();
  });

  it('keeps them, marked, beside the error when the exchange does not answer', async () => {
    const fake = fakeDesk({
      ...baseAnswers(),
      lastKnown: (r: { channel: string }) => (r.channel === 'totalBalance' ? { at: KNOWN_AT, data: KNOWN } : null),
      totalBalance: new Error('The exchange did not answer in 15 s.'),
    });
    renderWithDesk(fake, <OverviewPage />, { at: '/overview' });
    expect(await screen.findByRole('alert')).toHaveProperty('textContent', expect.stringContaining('did not answer'));
    expect(screen.getByTestId('total-amount').textContent).toBe('1,000,000');
    expect(screen.getByTestId('total-last-known').textContent).toContain('the exchange did not answer');
  });
});
