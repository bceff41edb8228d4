import { act, fireEvent, screen, waitFor } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import type { HistoryPageRequest } from '../../../../shared/history.ts';
import { createDesk } from '../../desk/DeskProvider.tsx';
import { fakeDesk } from '../../testkit/fakeDesk.ts';
import { baseAnswers, withdrawalRow } from '../../testkit/fixtures.ts';
import { renderRoutes, testQueryClient } from '../../testkit/renderPage.tsx';
import { DepositsPage } from './DepositsPage.tsx';
import { WithdrawalsPage } from './WithdrawalsPage.tsx';

// The Withdrawals page keeps its filters in the address (back, forward and reload keep the view). The
// address follows the rows: it is written once the rows under the new filters are painted, so that the
// router's re-render of the window does not come between a filter and its rows (docs/performance.md §Long lists).

const row = (i: number, status: string, currency = 'USDT') =>
  withdrawalRow({ id: `w${900 + i}`, timestamp: String(1_795_600_000 - i * 60), status, currency });

/** A desk whose filtered lists wait until the test lets them answer. */
function heldDesk() {
  const held: Array<() => void> = [];
  const fake = fakeDesk({
    ...baseAnswers(),
    withdrawalsList: (req: HistoryPageRequest) => {
      const rows = [row(1, 'DONE'), row(2, 'EXTPEND'), row(3, 'EXTPEND', 'BTC')].filter(
        (r) => (!req.filters?.status || r.status === req.filters.status) && (!req.filters?.currency || r.currency === req.filters.currency),
      );
      const page = { total: rows.length, rows, next_cursor: null };
      if (!req.filters?.status && !req.filters?.currency) return page;
      return new Promise((resolve) => held.push(() => resolve(page)));
    },
  });
  // Async, so that act flushes what the answers set off before the test reads the page (and there is a promise to await).
  const release = () =>
    act(async () => {
      held.splice(0).forEach((r) => r());
    });
  return { fake, release };
}

const choose = (label: string, value: string) => fireEvent.change(screen.getByLabelText(label), { target: { value } });

describe('Withdrawals: the filters in the address', () => {
  it('writes the address once the rows under the new filters are shown, with every change made before', async () => {
    const { fake, release } = heldDesk();
    const router = renderRoutes([{ path: '/*', element: <WithdrawalsPage /> }], '/', createDesk(fake.api), testQueryClient());
    await screen.findByText('3 records');
    choose('Status', 'EXTPEND');
    choose('Currency', 'USDT');
    // Asked, not answered: the address has not moved, and the page shows both choices.
    await new Promise((r) => setTimeout(r, 20));
    expect(router.state.location.search).toBe('');
    expect(screen.getByLabelText<HTMLSelectElement>('Status').value).toBe('EXTPEND');
    await release();
    await screen.findByText('1 records');
    // Written by the rows' paint, a frame or two after them: well inside the second after the change at
    // which the address is written even without rows.
    await waitFor(
      () => expect(Object.fromEntries(new URLSearchParams(router.state.location.search))).toEqual({ status: 'EXTPEND', currency: 'USDT' }),
      { timeout: 400 },
    );
    expect([...document.querySelectorAll<HTMLElement>('.history-row[data-row]')].map((r) => r.dataset.row)).toEqual(['w902']);
  });

  it('follows an address changed from outside (a link, back or forward)', async () => {
    const { fake, release } = heldDesk();
    const router = renderRoutes([{ path: '/*', element: <WithdrawalsPage /> }], '/', createDesk(fake.api), testQueryClient());
    await screen.findByText('3 records');
    await act(() => router.navigate('/?status=EXTPEND'));
    expect(screen.getByLabelText<HTMLSelectElement>('Status').value).toBe('EXTPEND');
    await release();
    await screen.findByText('2 records');
    expect(router.state.location.search).toBe('?status=EXTPEND');
  });

  it('writes nothing over the next page when it is left before its rows came', async () => {
    const { fake, release } = heldDesk();
    const router = renderRoutes(
      [
        { path: '/withdrawals', element: <WithdrawalsPage /> },
        { path: '/other', element: <p>Other page</p> },
      ],
      '/withdrawals',
      createDesk(fake.api),
      testQueryClient(),
    );
    await screen.findByText('3 records');
    choose('Status', 'EXTPEND');
    await act(() => router.navigate('/other'));
    await screen.findByText('Other page');
    await release();
    // Past the bound after which the address is written even without rows.
    await new Promise((r) => setTimeout(r, 1_100));
    expect(router.state.location.pathname).toBe('/other');
    expect(router.state.location.search).toBe('');
  });

  it('a filter change is a step of its own: Back undoes it and stays on the page', async () => {
    const { fake, release } = heldDesk();
    const router = renderRoutes(
      [
        { path: '/overview', element: <p>Overview</p> },
        { path: '/withdrawals', element: <WithdrawalsPage /> },
      ],
      '/overview',
      createDesk(fake.api),
      testQueryClient(),
    );
    await act(() => router.navigate('/withdrawals'));
    await screen.findByText('3 records');
    choose('Status', 'EXTPEND');
    await release();
    await waitFor(() => expect(router.state.location.search).toBe('?status=EXTPEND'), { timeout: 2_000 });
    await act(() => router.navigate(-1));
    expect(router.state.location.pathname).toBe('/withdrawals');
    expect(router.state.location.search).toBe('');
    await screen.findByText('3 records');
    expect(screen.getByLabelText<HTMLSelectElement>('Status').value).toBe('');
  });

  it('Deposits keeps its filters in the address the same way', async () => {
    const fake = fakeDesk({ ...baseAnswers() });
    const router = renderRoutes([{ path: '/deposits', element: <DepositsPage /> }], '/deposits', createDesk(fake.api), testQueryClient());
    await screen.findByText('0 records');
    choose('Status', 'DONE');
    await waitFor(() => expect(router.state.location.search).toBe('?status=DONE'), { timeout: 2_000 });
    await act(() => router.navigate(-1));
    expect(router.state.location.search).toBe('');
    expect(screen.getByLabelText<HTMLSelectElement>('Status').value).toBe('');
  });

  it('writes the address at the latest a second after a change whose rows never come', async () => {
    const { fake } = heldDesk();
    const router = renderRoutes([{ path: '/*', element: <WithdrawalsPage /> }], '/', createDesk(fake.api), testQueryClient());
    await screen.findByText('3 records');
    choose('Status', 'CANCEL');
    await waitFor(() => expect(router.state.location.search).toBe('?status=CANCEL'), { timeout: 2_000 });
  });
});
