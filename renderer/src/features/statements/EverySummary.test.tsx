import { fireEvent, render, screen, within } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import type { StatementSummary } from '../../../../shared/statements.ts';
import { EverySummary } from './EverySummary.tsx';

// Month end at a glance: an account that does not reconcile is counted in the headline and says how many
// of its movements are not explained; Show opens exactly that account's statement.

const statement = (account: string, unexplained: StatementSummary['unexplained'], difference: string): StatementSummary => ({
  id: `00000000-0000-4000-8000-00000000000${account.length}`,
  account,
  account_label: account === 'main' ? 'Main account' : `Sub-account ${account}`,
  currency: 'USDT',
  from: 0,
  to: 1,
  time_zone: 'UTC',
  opening: '100',
  closing: '123',
  balances_from: 'the book',
  movement_count: 0,
  total_in: '23',
  total_out: '0',
  computed_closing: '123',
  difference,
  unexplained,
  scope: [],
  requests: 1,
});

describe('every account side by side', () => {
  it('counts the statements that do not reconcile and opens the one asked for', () => {
    const sub = statement('10000101', [{ sentence: '2 movements of -77 USDT not explained', amount: '-77', count: 2 }], '-77');
    const onShow = vi.fn();
    render(
      <EverySummary
        every={{
          statements: [statement('main', [], '0'), sub],
          unreadable: [{ account: '9', label: 'Sub-account 9', readable: false, why: 'no key' }],
        }}
        onShow={onShow}
      />,
    );
    expect(screen.getByRole('status').textContent).toBe('1 of 2 statements do not reconcile: open them for what is not explained.');
    const row = screen.getByText('Sub-account 10000101').closest('tr')!;
    expect(row.textContent).toContain('0, 2 not explained');
    expect(screen.getByText('Main account').closest('tr')!.textContent).toContain('0, all explained');
    expect(screen.getByText(/Not in it: Sub-account 9: no key/)).toBeTruthy();
    fireEvent.click(within(row).getByRole('button', { name: 'Show' }));
    expect(onShow).toHaveBeenCalledWith(sub);
  });
});
