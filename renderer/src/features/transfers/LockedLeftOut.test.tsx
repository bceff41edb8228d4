import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { fakeDesk } from '../../testkit/fakeDesk.ts';
import { baseAnswers } from '../../testkit/fixtures.ts';
import { renderWithDesk } from '../../testkit/renderPage.tsx';
import { TransferForm } from './TransferForm.tsx';

// A locked sub-account takes no transfer in or out (SUB_ACCOUNT_LOCKED): the forms leave it out and say why.

describe('transfer forms and locked sub-accounts', () => {
  it('leave a locked sub-account out of the choices and say why', async () => {
    const fake = fakeDesk({
      ...baseAnswers(),
      subAccountsManaged: [
        { user_id: '101', login_name: 'ops', remark: '', locked: true, desk_key: null },
        { user_id: '102', login_name: 'mm', remark: '', locked: false, desk_key: null },
      ],
      balancesMatrix: {
        ...(baseAnswers().balancesMatrix as object),
        total_rows: 2,
        rows: [
          { uid: '101', name: 'ops' },
          { uid: '102', name: 'mm' },
        ],
      } as never,
    });
    renderWithDesk(fake, <TransferForm form="main_sub" subKeys={[]} />);
    expect((await screen.findByTestId('locked-left-out')).textContent).toMatch(
      /Left out, locked: ops \(101\)\. The exchange refuses transfers/,
    );
    await waitFor(() =>
      expect([...screen.getByTestId('known-sub-accounts').querySelectorAll('option')].map((o) => o.getAttribute('value'))).toEqual(['102']),
    );
    await userEvent.type(screen.getByLabelText('Sub-account uid'), '101');
    expect(screen.getByText(/sub-account 101 is locked: the exchange refuses transfers/)).toBeTruthy();
  });
});
