import { screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { ACCOUNT_KINDS } from '../../../../shared/balances.ts';
import { fakeDesk } from '../../testkit/fakeDesk.ts';
import { baseAnswers } from '../../testkit/fixtures.ts';
import { renderWithDesk } from '../../testkit/renderPage.tsx';
import { SubAccountsPage } from './SubAccountsPage.tsx';

// A load's end is told by a balancesProgress event; a window whose event stream connected after it
// left must not show "Loading" for ever. Here no event ever comes: the page asks again while the core
// says it is loading, and shows the rows once the load is done.

const cell = { amounts: { USDT: '10' }, value: '10', unpriced: [] };
const page = (state: 'loading' | 'ready') => ({
  status: {
    state,
    loaded: state === 'ready' ? 6 : 2,
    total: 6,
    fetched_at: 1_700_000_000_000,
    source: 'exchange',
    error: null,
    requests: 6,
    unread: [],
  },
  quote: 'USDT',
  total_rows: state === 'ready' ? 1 : 0,
  offset: 0,
  rows:
    state === 'ready'
      ? [
          {
            uid: '10000101',
            name: 'alpha',
            cells: Object.fromEntries(ACCOUNT_KINDS.map((k) => [k, cell])),
            total: '60',
            cross_risk: null,
            margin_risk: null,
            alerts: 0,
          },
        ]
      : [],
  column_totals: Object.fromEntries(ACCOUNT_KINDS.map((k) => [k, state === 'ready' ? '10' : '0'])),
  grand_total: state === 'ready' ? '60' : '0',
});

describe('the Sub-accounts page while the core loads', () => {
  it('shows the rows once the load is done, with no event telling it', async () => {
    let calls = 0;
    const fake = fakeDesk({ ...baseAnswers(), balancesMatrix: (() => page(++calls < 3 ? 'loading' : 'ready')) as never });
    renderWithDesk(fake, <SubAccountsPage />);
    // jsdom lays out no rows of the virtual list: the totals line says the load's rows arrived.
    expect(await screen.findByText(/Total of 1 sub-account/, {}, { timeout: 5_000 })).toBeTruthy();
    expect(calls).toBeGreaterThanOrEqual(3);
  });
});

describe('the Sub-accounts page after a failed load', () => {
  it('says what failed in words, with the request and its system code only under Details', async () => {
    const raw = 'GET /wallet/sub_account_balances at http://nowhere.test: the connection failed (ENOTFOUND)';
    const failed = page('ready');
    const fake = fakeDesk({
      ...baseAnswers(),
      balancesMatrix: {
        ...failed,
        status: {
          ...failed.status,
          error: 'The exchange could not be reached at nowhere.test: no such host was found.',
          error_detail: raw,
        },
      } as never,
    });
    renderWithDesk(fake, <SubAccountsPage />);
    const panel = await screen.findByText(/could not be reached at nowhere\.test/);
    const alert = panel.closest('[role="alert"]')!;
    expect(alert.querySelector('details')?.textContent).toContain(raw);
    alert.querySelector('details')!.remove();
    expect(alert.textContent).not.toMatch(/ENOTFOUND|\/wallet\//);
  });
});
