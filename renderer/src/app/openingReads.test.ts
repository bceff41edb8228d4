import { createMemoryRouter } from 'react-router';
import { describe, expect, it } from 'vitest';
import { expectOpeningFigures, leavingEndsOpening, openingFigures, openingShown } from './openingReads.ts';

const turn = () => new Promise((r) => setTimeout(r, 0));

describe("the opening page's figures", () => {
  it('are done with once the operator leaves the page, shown or not', async () => {
    expectOpeningFigures();
    const router = createMemoryRouter([{ path: '*', element: null }], { initialEntries: ['/sub-accounts'] });
    leavingEndsOpening(router);
    let done = false;
    void openingFigures().then(() => (done = true));
    // The same page again (its search changed): still waiting for its figures.
    await router.navigate('/sub-accounts?q=1');
    await turn();
    expect(done).toBe(false);
    await router.navigate('/withdrawals');
    await turn();
    expect(done).toBe(true);
    openingShown();
  });
});
