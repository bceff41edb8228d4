import { screen } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { fakeDesk } from '../../testkit/fakeDesk.ts';
import { baseAnswers, cachedMatrix } from '../../testkit/fixtures.ts';
import { renderWithDesk } from '../../testkit/renderPage.tsx';
import { SubAccountsPage } from './SubAccountsPage.tsx';

// The matrix's first render draws the rows in view only; the rows around them, for a smooth scroll, come
// after the frame that paints the first figures (docs/performance.md §Opening the desk: they were a seventh of a new window's work).

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
    const fake = fakeDesk({ ...baseAnswers(), balancesMatrix: cachedMatrix(100) as never });
    renderWithDesk(fake, <SubAccountsPage />);
    await screen.findByTestId('row-total-10000100');
    const first = drawn();
    expect(first).toBeGreaterThanOrEqual(Math.ceil(560 / 34));
    expect(first).toBeLessThanOrEqual(Math.ceil(560 / 34) + 1);
    await vi.waitFor(() => expect(drawn()).toBe(first + 12));
  });
});
