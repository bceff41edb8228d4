import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { fakeDesk } from '../../testkit/fakeDesk.ts';
import { baseAnswers } from '../../testkit/fixtures.ts';
import { refusal } from '../../testkit/refusal.ts';
import { renderWithDesk } from '../../testkit/renderPage.tsx';
import { WithdrawForm } from './WithdrawForm.tsx';

const ADDRESS = 'TQn9Y2khEsLJW1ChVWFMSMeRDow5KcbLSE';

function desk(over: Parameters<typeof fakeDesk>[0] = {}) {
  return fakeDesk({
    ...baseAnswers(),
    walletWithdrawStatus: [
      {
        currency: 'USDT',
        withdraw_fix: '1',
        withdraw_percent: '0%',
        withdraw_day_limit: '100000',
        withdraw_day_limit_remain: '100000',
        withdraw_amount_mini: '10',
        withdraw_eachtime_limit: '50000',
      },
    ],
    walletCurrencyChains: [
      { chain: 'TRX', name_en: 'Tron', is_disabled: 0, is_deposit_disabled: 0, is_withdraw_disabled: 0, decimal: '6' },
    ],
    walletSavedAddresses: [],
    approvalsReview: {
      kind: 'withdrawal',
      body: { currency: 'USDT', chain: 'TRX', address: ADDRESS, amount: '20' },
      verdict: { decision: 'require', rule: 'confirm-every-write', approvals: 1, drafter_may_approve: true, rules: [] },
      destination_note: 'a new address',
    },
    ...over,
  } as Parameters<typeof fakeDesk>[0]);
}

async function fill(amount: string) {
  const form = await screen.findByRole('form', { name: 'New withdrawal' });
  await waitFor(() => expect(within(form).getAllByRole('option', { name: 'USDT' }).length).toBe(1));
  await userEvent.selectOptions(within(form).getByLabelText('Currency'), 'USDT');
  await waitFor(() => expect(within(form).getAllByRole('option', { name: /TRX/ }).length).toBe(1));
  await userEvent.selectOptions(within(form).getByLabelText('Chain'), 'TRX');
  await userEvent.click(within(form).getByLabelText('A new address'));
  await userEvent.type(within(form).getByLabelText('New address'), ADDRESS);
  await userEvent.type(within(form).getByLabelText('Amount'), amount);
  return form;
}

describe('New withdrawal', () => {
  it("names the exchange's low-liquidity currencies in the currency choice, and lets none be chosen", async () => {
    renderWithDesk(desk({ lowCapCurrencies: { currencies: ['PEPEX'], fetched_at: 0 } }), <WithdrawForm />);
    const form = await screen.findByRole('form', { name: 'New withdrawal' });
    const pepex = (await within(form).findByRole('option', { name: /^PEPEX/ })) as HTMLOptionElement;
    expect(pepex.textContent).toBe('PEPEX (low liquidity: the API does not withdraw it)');
    expect(pepex.disabled).toBe(true);
    expect((within(form).getByRole('option', { name: 'USDT' }) as HTMLOptionElement).disabled).toBe(false);
  });

  it('says what the chain refuses as the operator types, and asks the core nothing', async () => {
    const fake = desk();
    renderWithDesk(fake, <WithdrawForm />);
    const form = await fill('5');
    const amount = within(form).getByLabelText('Amount');
    await waitFor(() => expect(amount.getAttribute('aria-invalid')).toBe('true'));
    expect(document.getElementById(amount.getAttribute('aria-describedby')!)!.textContent).toMatch(/10/);
    expect((within(form).getByRole('button', { name: 'Review' }) as HTMLButtonElement).disabled).toBe(true);
    await userEvent.type(amount, '{Enter}');
    expect(fake.count('approvalsReview')).toBe(0);
  });

  it('reviews the withdrawal as typed, and puts a refusal of the core on the address it names', async () => {
    const fake = desk({
      approvalsReview: refusal('approvalsReview', ['write', 'input', 'address'], 'This address is not valid on the TRX chain.') as never,
    });
    renderWithDesk(fake, <WithdrawForm />);
    const form = await fill('20');
    await waitFor(() => expect(screen.getByTestId('arrives').textContent).toContain('19 USDT arrives'));
    await userEvent.click(within(form).getByRole('button', { name: 'Review' }));
    await waitFor(() =>
      expect(fake.calls.approvalsReview).toEqual([
        { write: { kind: 'withdrawal', input: { currency: 'USDT', chain: 'TRX', address: ADDRESS, amount: '20' } } },
      ]),
    );
    const address = within(form).getByLabelText('New address');
    await waitFor(() => expect(address.getAttribute('aria-invalid')).toBe('true'));
    expect(document.getElementById(address.getAttribute('aria-describedby')!)!.textContent).toBe(
      'This address is not valid on the TRX chain.',
    );
    expect(within(form).queryByText('Not accepted')).toBeNull();
  });
});
