import { act, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { ACCOUNT_KINDS } from '../../../../shared/balances.ts';
import type { UnreadRecord } from '../../../../shared/unread.ts';
import { StatusBar } from '../../app/StatusBar.tsx';
import { fakeDesk } from '../../testkit/fakeDesk.ts';
import { baseAnswers } from '../../testkit/fixtures.ts';
import { renderWithDesk } from '../../testkit/renderPage.tsx';
import { SubAccountsPage } from './SubAccountsPage.tsx';

// A load that set one malformed record aside: the Sub-accounts page says so beside its figures, with the
// record, field and problem, and its totals say they exclude it; the status bar counts what every list
// answer set aside.

const BAD: UnreadRecord = {
  endpoint: 'GET /wallet/sub_account_futures_balances',
  record: 'uid 10000123',
  field: 'available.usdt.unrealised_pnl',
  problem: 'is not valid (must be a decimal number string)',
};

const cell = { amounts: { USDT: '10' }, value: '10', unpriced: [] };
const row = {
  uid: '10000101',
  name: 'alpha',
  cells: Object.fromEntries(ACCOUNT_KINDS.map((k) => [k, cell])),
  total: '60',
  cross_risk: null,
  margin_risk: null,
  alerts: 0,
};

describe('records that could not be read', () => {
  it('are told on the Sub-accounts page with their details, and its totals say they exclude them', async () => {
    const fake = fakeDesk({
      ...baseAnswers(),
      balancesMatrix: {
        status: {
          state: 'ready',
          loaded: 6,
          total: 6,
          fetched_at: 1_700_000_000_000,
          source: 'exchange',
          error: null,
          requests: 6,
          unread: [BAD],
        },
        quote: 'USDT',
        total_rows: 1,
        offset: 0,
        rows: [row],
        column_totals: Object.fromEntries(ACCOUNT_KINDS.map((k) => [k, '10'])),
        grand_total: '60',
      } as never,
    });
    renderWithDesk(fake, <SubAccountsPage />);
    const notice = await screen.findByTestId('unread-notice');
    expect(notice.textContent).toContain('1 record could not be read');
    expect(notice.textContent).toContain(
      'GET /wallet/sub_account_futures_balances, uid 10000123: available.usdt.unrealised_pnl is not valid',
    );
    expect(within(screen.getByTestId('matrix-totals')).getByTestId('totals-exclude').textContent).toContain(
      'excludes 1 record that could not be read',
    );
  });

  it('are counted in the status bar, and the count follows the core', async () => {
    const fake = fakeDesk({ ...baseAnswers(), unreadRecords: { count: 2, records: [BAD, BAD] } });
    renderWithDesk(fake, <StatusBar />);
    expect((await screen.findByTestId('unread-records')).textContent).toBe('2 records could not be read');
    act(() => fake.emit('unreadRecords', { count: 0, records: [] }));
    await waitFor(() => expect(screen.queryByTestId('unread-records')).toBeNull());
  });
});
