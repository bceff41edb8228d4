import { act, fireEvent, screen, waitFor } from '@testing-library/react';
import { describe, expect, it, onTestFinished } from 'vitest';
import type { HistoryPageRequest } from '../../../../shared/history.ts';
import { createDesk } from '../../desk/DeskProvider.tsx';
import { fakeDesk } from '../../testkit/fakeDesk.ts';
import { baseAnswers, withdrawalRow } from '../../testkit/fixtures.ts';
import { renderRoutes, testQueryClient } from '../../testkit/renderPage.tsx';
import { STALE_AFTER_MS } from './listedView.ts';
import { WithdrawalsPage } from './WithdrawalsPage.tsx';

// While the rows of a new filter or sort are asked, the list keeps the rows it shows rather than emptying
// and filling again (docs/performance.md §Long lists: two rebuilds of the rows between a filter and its rows); it moves to the
// new rows in one change when they come quickly, and marks the old ones stale when they are late.

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
  // Async, so that act flushes what the answers set off before the test reads the page (and there is a promise to await).
  const release = () =>
    act(async () => {
      held.splice(0).forEach((r) => r());
    });
  return { fake, release };
}

const shown = () => [...document.querySelectorAll<HTMLElement>('.history-row[data-row]')].map((r) => r.dataset.row);
const table = () => document.querySelector<HTMLElement>('.history-table')!;

/** Every row list and stale mark the table showed, in order, from now on. */
function recordShown(): Array<string> {
  const seen: string[] = [];
  const note = () => {
    const now = `${shown().join(',')}${table().dataset.stale === 'true' ? ' (stale)' : ''}`;
    if (seen.at(-1) !== now) seen.push(now);
  };
  note();
  const watch = new MutationObserver(note);
  watch.observe(table(), { subtree: true, childList: true, attributes: true });
  onTestFinished(() => watch.disconnect());
  return seen;
}

const wait = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** The Withdrawals page showing the unfiltered list; answers what lets the held lists answer. */
async function openWithAllRows(): Promise<ReturnType<typeof heldDesk>['release']> {
  const { fake, release } = heldDesk();
  renderRoutes([{ path: '/*', element: <WithdrawalsPage /> }], '/', createDesk(fake.api), testQueryClient());
  await waitFor(() => expect(shown()).toEqual(['w901', 'w902', 'w903']));
  return release;
}

describe('Withdrawals: the rows shown while new ones are asked', () => {
  it('moves from the old rows to the filtered ones in one change when they come quickly', async () => {
    const release = await openWithAllRows();
    const seen = recordShown();
    fireEvent.change(screen.getByLabelText('Status'), { target: { value: 'EXTPEND' } });
    expect(screen.getByLabelText<HTMLSelectElement>('Status').value).toBe('EXTPEND');
    // A tenth of the time the list waits before it marks its rows stale.
    await wait(STALE_AFTER_MS / 10);
    await release();
    await waitFor(() => expect(shown()).toEqual(['w902', 'w903']));
    expect(seen).toEqual(['w901,w902,w903', 'w902,w903']);
    expect(screen.getByTestId('withdrawals-total').textContent).toBe('2 records');
  });

  it('marks the rows it shows stale once the filtered rows are late, and keeps them until they come', async () => {
    const release = await openWithAllRows();
    fireEvent.change(screen.getByLabelText('Status'), { target: { value: 'EXTPEND' } });
    await wait(STALE_AFTER_MS + 50);
    expect(shown()).toEqual(['w901', 'w902', 'w903']);
    expect(table().dataset.stale).toBe('true');
    expect(screen.getByTestId('withdrawals-total').textContent).toBe('3 records · loading');
    await release();
    await waitFor(() => expect(shown()).toEqual(['w902', 'w903']));
    expect(table().dataset.stale).toBe('false');
    expect(screen.getByTestId('withdrawals-total').textContent).toBe('2 records');
  });

  it('keeps them across a change of sort too', async () => {
    const release = await openWithAllRows();
    fireEvent.click(screen.getByRole('button', { name: 'Sort by Amount' }));
    await wait(STALE_AFTER_MS + 50);
    expect(shown()).toEqual(['w901', 'w902', 'w903']);
    expect(table().dataset.stale).toBe('true');
    await release();
    await waitFor(() => expect(shown()).toEqual(['w902', 'w903', 'w901']));
    expect(table().dataset.stale).toBe('false');
  });

  it('never lists a choice the operator changed before its rows came', async () => {
    const release = await openWithAllRows();
    const seen = recordShown();
    fireEvent.change(screen.getByLabelText('Status'), { target: { value: 'EXTPEND' } });
    fireEvent.change(screen.getByLabelText('Status'), { target: { value: '' } });
    await release();
    await wait(STALE_AFTER_MS + 50);
    expect(screen.getByLabelText<HTMLSelectElement>('Status').value).toBe('');
    expect(seen).toEqual(['w901,w902,w903']);
  });
});
