import { fireEvent, screen, waitFor } from '@testing-library/react';
import { Profiler } from 'react';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { HistoryPageRequest, WithdrawalRow } from '../../../../shared/history.ts';
import { fakeDesk } from '../../testkit/fakeDesk.ts';
import { baseAnswers, withdrawalRow } from '../../testkit/fixtures.ts';
import { createDesk } from '../../desk/DeskProvider.tsx';
import { renderRoutes, renderWithDesk, testQueryClient } from '../../testkit/renderPage.tsx';
import { HistoryTable } from './HistoryTable.tsx';
import { FIRST_SORT, prefetchFirstPage } from './queries.ts';
import { WithdrawalsPage } from './WithdrawalsPage.tsx';

// A year of withdrawals (100,000 rows): moving the list's view deep into it asks the desk for the page
// that holds the rows in view, not for every page above them, and shows the records at their places.

const TOTAL = 100_000;
const ROW_HEIGHT = 30;

function record(i: number): WithdrawalRow {
  return withdrawalRow({
    id: `w${TOTAL - i}`,
    timestamp: String(1_795_600_000 - i * 60),
    amount: String(1 + (i % 97)),
    address: `TAddr${String(i).padStart(28, '0')}`,
  });
}

/** The desk's list, newest first, by offset or by the cursor of the page before (the index of its next row). */
function answer(req: HistoryPageRequest) {
  const start = req.offset ?? (req.cursor ? Number(req.cursor) : 0);
  const limit = req.limit ?? 100;
  const end = Math.min(TOTAL, start + limit);
  return {
    total: TOTAL,
    rows: Array.from({ length: end - start }, (_, k) => record(start + k)),
    next_cursor: end < TOTAL ? String(end) : null,
  };
}

// jsdom lays nothing out: the list's box is given a height, as the browser's layout would.
beforeAll(() => {
  for (const [prop, px] of [
    ['clientHeight', 600],
    ['clientWidth', 1200],
  ] as const) {
    Object.defineProperty(HTMLElement.prototype, prop, {
      configurable: true,
      get(this: HTMLElement) {
        return this.classList.contains('history-scroll') ? px : 0;
      },
    });
  }
});
// jsdom's own (on Element.prototype) shows through again.
afterAll(() => {
  delete (HTMLElement.prototype as { clientHeight?: number }).clientHeight;
  delete (HTMLElement.prototype as { clientWidth?: number }).clientWidth;
});

describe('Withdrawals: a list of 100,000', () => {
  it('shows row 60,000 after a jump there with the one page that holds it, not the 600 pages above', async () => {
    const fake = fakeDesk({ ...baseAnswers(), withdrawalsList: (req) => answer(req) as never });
    renderWithDesk(fake, <WithdrawalsPage />);
    await screen.findByText('100,000 records');
    expect(document.querySelector('.history-row[data-row="w100000"]')).not.toBeNull();

    const scroller = screen.getByTestId('withdrawals-scroll');
    Object.defineProperty(scroller, 'scrollTop', { configurable: true, value: 60_000 * ROW_HEIGHT });
    fireEvent.scroll(scroller);

    // The row at position 60,000 (aria-rowindex counts the header and from 1) is the 60,001st newest.
    await waitFor(() => expect(document.querySelector('[aria-rowindex="60002"]')?.getAttribute('data-row')).toBe(`w${TOTAL - 60_000}`));
    const rows = [...document.querySelectorAll<HTMLElement>('.history-row[data-row]')];
    for (const r of rows) expect(r.dataset.row).toBe(`w${TOTAL - (Number(r.getAttribute('aria-rowindex')) - 2)}`);
    expect(screen.getByText(`TAddr${String(60_000).padStart(28, '0')}`)).toBeTruthy();

    const asked = (fake.calls.withdrawalsList ?? []) as HistoryPageRequest[];
    // The first page (it carries the total) and the pages around the view; none of the 59,000 rows between.
    expect(asked.length).toBeLessThanOrEqual(4);
    for (const req of asked) expect(req.offset === 0 || (req.offset ?? 0) >= 59_800).toBe(true);
  });

  it('asks for the filtered list from the change of the filter itself, then shows only what matches', async () => {
    const fake = fakeDesk({
      ...baseAnswers(),
      withdrawalsList: (req) =>
        req.filters?.status === 'EXTPEND'
          ? { total: 1, rows: [{ ...record(7), status: 'EXTPEND' }], next_cursor: null }
          : (answer(req) as never),
    });
    renderWithDesk(fake, <WithdrawalsPage />);
    await screen.findByText('100,000 records');
    const before = fake.count('withdrawalsList');
    // The browser's own event, outside act(): React renders the address change later, as it would in the window.
    const status = screen.getByLabelText<HTMLSelectElement>('Status');
    status.value = 'EXTPEND';
    status.dispatchEvent(new Event('change', { bubbles: true }));
    // Asked within the change event, not after the page has rendered the new filter.
    const asked = (fake.calls.withdrawalsList ?? []).slice(before) as HistoryPageRequest[];
    expect(asked).toEqual([{ filters: { status: 'EXTPEND' }, sort: { by: 'time', dir: 'desc' }, offset: 0, limit: 100 }]);
    await screen.findByText('1 records');
    expect([...document.querySelectorAll<HTMLElement>('.history-row[data-row]')].map((r) => r.dataset.row)).toEqual([`w${TOTAL - 7}`]);
    // The page under the new filter was asked once: the page's own query found it in flight or held.
    expect(fake.count('withdrawalsList') - before).toBe(1);
  });

  it('draws in its first render the rows its box shows: measuring the box takes none away', async () => {
    const fake = fakeDesk({ ...baseAnswers(), withdrawalsList: (req) => answer(req) as never });
    // A 900 px window: the browser lays the box out 330 px shorter (its style's max(300px, 100vh - 330px)).
    const inner = vi.spyOn(window, 'innerHeight', 'get').mockReturnValue(900);
    const box = vi.spyOn(HTMLElement.prototype, 'clientHeight', 'get').mockImplementation(function (this: HTMLElement) {
      return this.classList.contains('history-scroll') ? 570 : 0;
    });
    let dropped = 0;
    const watch = new MutationObserver((changes) => {
      for (const c of changes) for (const n of c.removedNodes) if (n instanceof HTMLElement && n.matches('.history-row')) dropped++;
    });
    watch.observe(document.body, { childList: true, subtree: true });
    try {
      // As from the sidebar's click: the first page is asked while the page's code loads, and is in when it renders.
      const desk = createDesk(fake.api);
      const qc = testQueryClient();
      await prefetchFirstPage(qc, desk, 'withdrawals');
      renderRoutes([{ path: '/*', element: <WithdrawalsPage /> }], '/', desk, qc);
      expect(screen.getByText('100,000 records')).toBeTruthy();
      await new Promise((r) => setTimeout(r, 0));
      // 570 px of 30 px rows, one more for a row cut at the foot, and the overscan of 5 below.
      expect(document.querySelectorAll('.history-row[data-row]').length).toBe(25);
      expect(dropped).toBe(0);
    } finally {
      watch.disconnect();
      box.mockRestore();
      inner.mockRestore();
    }
  });

  it("draws the first page's rows in the one commit that receives them, the rows in view worked out without measuring 100,000", async () => {
    let release = () => {};
    const held = new Promise<void>((r) => (release = r));
    const fake = fakeDesk({
      ...baseAnswers(),
      withdrawalsList: async (req) => {
        await held;
        return answer(req) as never;
      },
    });
    const commits: string[] = [];
    renderWithDesk(
      fake,
      <Profiler id="list" onRender={(_id, phase) => commits.push(phase)}>
        <HistoryTable<'withdrawals', WithdrawalRow>
          kind="withdrawals"
          label="Withdrawal list"
          filters={{}}
          sort={FIRST_SORT}
          onSort={() => {}}
          columns={[{ id: 'id', header: 'Id', width: 100, render: (r) => r.id }]}
          rowKey={(r) => r.id}
        />
      </Profiler>,
    );
    await screen.findByText('0 records · loading');
    const before = commits.length;
    release();
    await screen.findByText('100,000 records');
    // A screenful of rows (600 px of 30 px rows, and a few either side), every one a real record.
    const rows = [...document.querySelectorAll<HTMLElement>('.history-row')];
    expect(rows.length).toBeGreaterThanOrEqual(20);
    expect(rows.length).toBeLessThan(40);
    expect(rows.every((r) => r.dataset.row)).toBe(true);
    expect(rows[0]!.dataset.row).toBe(`w${TOTAL}`);
    // No second render to find out which rows are in view once the length is known.
    expect(commits.length - before).toBe(1);
    expect(fake.count('withdrawalsList')).toBe(1);
  });
});
