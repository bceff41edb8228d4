import { act, fireEvent, screen, waitFor } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import type { HistoryPageRequest } from '../../../../shared/history.ts';
import { createDesk } from '../../desk/DeskProvider.tsx';
import { fakeDesk } from '../../testkit/fakeDesk.ts';
import { baseAnswers, withdrawalRow } from '../../testkit/fixtures.ts';
import { renderRoutes, testQueryClient } from '../../testkit/renderPage.tsx';
import { WithdrawalsPage } from './WithdrawalsPage.tsx';

// While the rows of a new filter or sort are asked, the list keeps the rows it shows, marked stale,
// rather than emptying and filling again (issue 25: two rebuilds of the rows between a filter and its rows).

const ROWS = [
  withdrawalRow({ id: 'w901', timestamp: '1795600000', status: 'DONE', amount: '10' }),
  withdrawalRow({ id: 'w902', timestamp: '1795599940', status: 'EXTPEND', amount: '30' }),
  withdrawalRow({ id: 'w903', timestamp: '1795599880', status: 'EXTPEND', amount: '20' }),
];

/** Answers the unfiltered newest-first list at once; any other list waits until the test lets it answer. */
function heldDesk() {
  const held: Array<() => void> = [];
  const fake = fakeDesk({
    ...baseAnswers(),
    withdrawalsList: (req: HistoryPageRequest) => {
      const rows = ROWS.filter((r) => !req.filters?.status || r.status === req.filters.status);
      if (req.sort?.by === 'amount') rows.sort((a, b) => (Number(a.amount) - Number(b.amount)) * (req.sort?.dir === 'asc' ? 1 : -1));
      const page = { total: rows.length, rows, next_cursor: null };
      if (!req.filters?.status && req.sort?.by !== 'amount') return page;
      return new Promise((resolve) => held.push(() => resolve(page)));
    },
  });
  const release = () => act(() => held.splice(0).forEach((r) => r()));
  return { fake, release };
}

const shown = () => [...document.querySelectorAll<HTMLElement>('.history-row[data-row]')].map((r) => r.dataset.row);
const table = () => document.querySelector<HTMLElement>('.history-table')!;

describe('Withdrawals: the rows shown while new ones are asked', () => {
  it('keeps the rows it shows, marked stale, until the filtered rows come', async () => {
    const { fake, release } = heldDesk();
    renderRoutes([{ path: '/*', element: <WithdrawalsPage /> }], '/', createDesk(fake.api), testQueryClient());
    await waitFor(() => expect(shown()).toEqual(['w901', 'w902', 'w903']));
    fireEvent.change(screen.getByLabelText('Status'), { target: { value: 'EXTPEND' } });
    await new Promise((r) => setTimeout(r, 20));
    expect(shown()).toEqual(['w901', 'w902', 'w903']);
    expect(table().dataset.stale).toBe('true');
    expect(screen.getByTestId('withdrawals-total').textContent).toBe('3 records · loading');
    await release();
    await waitFor(() => expect(shown()).toEqual(['w902', 'w903']));
    expect(table().dataset.stale).toBe('false');
    expect(screen.getByTestId('withdrawals-total').textContent).toBe('2 records');
  });

  it('keeps them across a change of sort too', async () => {
    const { fake, release } = heldDesk();
    renderRoutes([{ path: '/*', element: <WithdrawalsPage /> }], '/', createDesk(fake.api), testQueryClient());
    await waitFor(() => expect(shown()).toEqual(['w901', 'w902', 'w903']));
    fireEvent.click(screen.getByRole('button', { name: 'Sort by Amount' }));
    await new Promise((r) => setTimeout(r, 20));
    expect(shown()).toEqual(['w901', 'w902', 'w903']);
    expect(table().dataset.stale).toBe('true');
    await release();
    await waitFor(() => expect(shown()).toEqual(['w902', 'w903', 'w901']));
    expect(table().dataset.stale).toBe('false');
  });
});
