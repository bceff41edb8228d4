import { screen } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { ACCOUNT_KINDS } from '../../../../shared/balances.ts';
import { fakeDesk } from '../../testkit/fakeDesk.ts';
import { baseAnswers } from '../../testkit/fixtures.ts';
import { renderWithDesk } from '../../testkit/renderPage.tsx';
import { SubAccountsPage } from './SubAccountsPage.tsx';

// The matrix's first render draws the rows in view only; the rows around them, for a smooth scroll, come
// after the frame that paints the first figures (issue 25: they were a seventh of a new window's work).

const cell = { amounts: { USDT: '10' }, value: '10', unpriced: [] };
const rows = Array.from({ length: 100 }, (_, i) => ({
  uid: String(10_000_100 + i),
  name: `sub ${i}`,
  cells: Object.fromEntries(ACCOUNT_KINDS.map((k) => [k, cell])),
  total: '60',
  cross_risk: null,
  margin_risk: null,
  alerts: 0,
}));
const page = {
  status: { state: 'ready', loaded: 15, total: 15, fetched_at: Date.now(), source: 'cache', error: null, requests: 15, unread: [] },
  quote: 'USDT',
  total_rows: 100,
  offset: 0,
  rows,
  column_totals: Object.fromEntries(ACCOUNT_KINDS.map((k) => [k, '1000'])),
  grand_total: '6000',
};

/** The rows drawn, by their totals' test ids. */
const drawn = () => document.querySelectorAll('[data-testid^="row-total-"]').length;

describe('the Sub-accounts matrix, first drawn', () => {
  // The rows' box as a window lays it out (jsdom lays nothing out): 560 px, 34 px a row.
  beforeEach(() => {
    vi.spyOn(Element.prototype, 'clientHeight', 'get').mockReturnValue(560);
    vi.spyOn(Element.prototype, 'clientWidth', 'get').mockReturnValue(1200);
  });
  afterEach(() => vi.restoreAllMocks());

  it('draws the rows in view only, then the rows around them once the figures are painted', async () => {
    const fake = fakeDesk({ ...baseAnswers(), balancesMatrix: page as never });
    renderWithDesk(fake, <SubAccountsPage />);
    await screen.findByTestId('row-total-10000100');
    const first = drawn();
    expect(first).toBeGreaterThanOrEqual(Math.ceil(560 / 34));
    expect(first).toBeLessThanOrEqual(Math.ceil(560 / 34) + 1);
    await vi.waitFor(() => expect(drawn()).toBe(first + 12));
  });
});
