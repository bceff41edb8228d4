import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import type { ChannelResponse } from '../../../../shared/ipc.ts';
import { fakeDesk } from '../../testkit/fakeDesk.ts';
import { baseAnswers, intent } from '../../testkit/fixtures.ts';
import { refusal } from '../../testkit/refusal.ts';
import { renderWithDesk } from '../../testkit/renderPage.tsx';
import OrdersPage from './OrdersPage.tsx';

type Order = ChannelResponse<'spotOrders'>[number];

function order(over: Partial<Order>): Order {
  return {
    id: '501',
    text: 't-x.abc',
    amend_text: '-',
    create_time: '1700000000',
    update_time: '1700000000',
    create_time_ms: 1_700_000_000_000,
    update_time_ms: 1_700_000_000_000,
    status: 'open',
    currency_pair: 'BTC_USDT',
    type: 'limit',
    account: 'spot',
    side: 'buy',
    amount: '0.01',
    price: '50000',
    time_in_force: 'gtc',
    iceberg: '0',
    left: '0.01',
    filled_amount: '0',
    fill_price: '0',
    filled_total: '0',
    avg_deal_price: '0',
    fee: '0',
    fee_currency: 'BTC',
    point_fee: '0',
    gt_fee: '0',
    gt_maker_fee: '0',
    gt_taker_fee: '0',
    gt_discount: false,
    rebated_fee: '0',
    rebated_fee_currency: 'USDT',
    stp_id: 0,
    stp_act: '-',
    finish_as: 'open',
    ...over,
  };
}

const REVIEW = {
  kind: 'spot_order' as const,
  body: {
    currency_pair: 'BTC_USDT',
    side: 'buy',
    type: 'limit',
    account: 'spot',
    amount: '0.01',
    price: '60000',
    time_in_force: 'gtc',
    text: 't-(set when drafted)',
  },
  verdict: { decision: 'require' as const, rule: 'confirm-every-write', approvals: 1, drafter_may_approve: true, rules: [] },
  destination_note: 'notional 600 USDT',
};

function desk(over: Parameters<typeof fakeDesk>[0] = {}) {
  return fakeDesk({
    ...baseAnswers(),
    spotOrders: (r: { status: string }) =>
      r.status === 'open'
        ? [order({})]
        : [
            order({ id: '502', status: 'closed', finish_as: 'filled', fee: '0.00002' }),
            order({ id: '503', status: 'cancelled', finish_as: 'poc' }),
          ],
    approvalsReview: REVIEW,
    approvalsDraft: { ticket: 'tk-1', title: 'buy 0.01 BTC_USDT at 60000', ref: 'r-1' },
    requestStatus: { ref: 'r-1', state: 'to_sign', approved_by: [], needed: 1, rejected: null, expires_at: null, intent: null },
    ...over,
  });
}

describe('the Orders page', () => {
  it("checks the pair's rules as the operator types, then reviews with the estimate and the fee and drafts for signing", async () => {
    const fake = desk();
    renderWithDesk(fake, <OrdersPage />);
    const form = await screen.findByRole('form', { name: 'New order' });
    await userEvent.type(within(form).getByLabelText('Amount'), '0.00001');
    await userEvent.type(within(form).getByLabelText('Price'), '60000.123');
    const amount = within(form).getByLabelText('Amount');
    expect(amount.getAttribute('aria-invalid')).toBe('true');
    expect(document.getElementById(amount.getAttribute('aria-describedby')!)!.textContent).toBe(
      'BTC_USDT takes amounts with at most 4 decimal places; the amount must be at least 0.0001 BTC; price × amount is 0.60000123 USDT; it must be at least 1 USDT',
    );
    expect(document.getElementById(within(form).getByLabelText('Price').getAttribute('aria-describedby')!)!.textContent).toBe(
      'BTC_USDT takes prices with at most 2 decimal places',
    );
    expect((within(form).getByRole('button', { name: 'Review' }) as HTMLButtonElement).disabled).toBe(true);

    await userEvent.clear(amount);
    await userEvent.type(amount, '0.01');
    await userEvent.clear(within(form).getByLabelText('Price'));
    await userEvent.type(within(form).getByLabelText('Price'), '60000');
    await userEvent.type(within(form).getByLabelText('Label'), 'desk1');
    await userEvent.click(within(form).getByRole('button', { name: 'Review' }));
    await waitFor(() =>
      expect(fake.calls.approvalsReview).toEqual([
        {
          write: {
            kind: 'spot_order',
            input: {
              currency_pair: 'BTC_USDT',
              side: 'buy',
              type: 'limit',
              account: 'spot',
              amount: '0.01',
              price: '60000',
              time_in_force: 'gtc',
              label: 'desk1',
            },
          },
        },
      ]),
    );
    expect((await screen.findByTestId('estimate')).textContent).toMatch(
      /Spends about 600 USDT and receives about 0.01 BTC at 60000, less a fee of at most 0.00002 BTC/,
    );
    await userEvent.click(screen.getByRole('button', { name: 'Send for signing' }));
    expect((await screen.findByTestId('awaiting-signature')).textContent).toContain('buy 0.01 BTC_USDT at 60000');
  });

  it('shows finish_as in words and the fee in the history', async () => {
    renderWithDesk(desk(), <OrdersPage />);
    const history = await screen.findByTestId('order-history');
    await waitFor(() => expect(within(history).getAllByRole('row')).toHaveLength(3));
    expect(history.querySelector('[data-order="502"]')!.textContent).toContain('Filled in full');
    expect(history.querySelector('[data-order="502"]')!.textContent).toContain('0.00002 BTC');
    expect(history.querySelector('[data-order="503"]')!.textContent).toContain(
      'Post-only: it would have taken liquidity, so it was cancelled',
    );
  });

  it('says why the exchange refused an order the desk sent, as a sentence', async () => {
    const refused = intent({
      id: 'o-1',
      kind: 'spot_order',
      state: 'refused',
      label: 'FOK_NOT_FILL',
      body: { ...REVIEW.body, time_in_force: 'fok', text: 't-abc' },
    });
    renderWithDesk(desk({ intentsList: { items: [refused], next: null } }), <OrdersPage />);
    const sent = await screen.findByTestId('sent-orders');
    expect(within(sent).getByTestId('outcome').textContent).toBe('The fill-or-kill order could not be filled completely.');
  });

  it('cancels one open order as a journaled write the default policy lets through', async () => {
    const fake = desk({
      approvalsReview: {
        ...REVIEW,
        kind: 'spot_cancel',
        body: { currency_pair: 'BTC_USDT', order_id: '501', account: 'spot' },
        verdict: { ...REVIEW.verdict, decision: 'allow', rule: 'cancels-free', approvals: 0 },
      },
      writePrepare: intent({ id: 'c-1', kind: 'spot_cancel' }),
      writeApprove: intent({ id: 'c-1', kind: 'spot_cancel', state: 'done' }),
    });
    renderWithDesk(fake, <OrdersPage />);
    const open = await screen.findByTestId('open-orders');
    await userEvent.click(await within(open).findByRole('button', { name: 'Cancel' }));
    expect(await screen.findByText('Cancelled.')).toBeTruthy();
    expect(fake.calls.writePrepare).toEqual([
      {
        write: { kind: 'spot_cancel', input: { currency_pair: 'BTC_USDT', order_id: '501', account: 'spot' } },
        note: 'from the Orders page',
      },
    ]);
    expect(fake.calls.writeApprove).toEqual([{ id: 'c-1' }]);
  });

  it('refuses a sub-account whose key the profile does not hold, and reads nothing for it', async () => {
    const fake = desk();
    renderWithDesk(fake, <OrdersPage />, { at: '/?sub=10000199' });
    expect((await screen.findByTestId('no-sub-key')).textContent).toContain('holds no key for sub-account 10000199');
    expect(fake.count('spotOrders')).toBe(0);
  });

  it('puts a refusal of the core on the field it names, not in a panel', async () => {
    const fake = desk({
      approvalsReview: refusal(
        'approvalsReview',
        ['write', 'input', 'price'],
        'The price is outside the band the exchange accepts now.',
      ) as never,
    });
    renderWithDesk(fake, <OrdersPage />);
    const form = await screen.findByRole('form', { name: 'New order' });
    await userEvent.type(within(form).getByLabelText('Amount'), '0.01');
    await userEvent.type(within(form).getByLabelText('Price'), '60000');
    await userEvent.click(within(form).getByRole('button', { name: 'Review' }));
    const price = within(form).getByLabelText('Price');
    await waitFor(() => expect(price.getAttribute('aria-invalid')).toBe('true'));
    expect(document.getElementById(price.getAttribute('aria-describedby')!)!.textContent).toBe(
      'The price is outside the band the exchange accepts now.',
    );
    expect(within(form).queryByRole('alert')).toBeNull();
  });

  it('keeps Review shut while the contract refuses a field (a label of the wrong characters)', async () => {
    const fake = desk();
    renderWithDesk(fake, <OrdersPage />);
    const form = await screen.findByRole('form', { name: 'New order' });
    await userEvent.type(within(form).getByLabelText('Amount'), '0.01');
    await userEvent.type(within(form).getByLabelText('Price'), '60000');
    await userEvent.type(within(form).getByLabelText('Label'), 'no spaces!');
    const label = within(form).getByLabelText('Label');
    await waitFor(() => expect(label.getAttribute('aria-invalid')).toBe('true'));
    expect(document.getElementById(label.getAttribute('aria-describedby')!)!.textContent).toBe(
      'A label is 1 to 10 letters, digits, _ - or .',
    );
    const review = within(form).getByRole('button', { name: 'Review' }) as HTMLButtonElement;
    expect(review.disabled).toBe(true);
    // Even a submit that goes around the button (Enter in a field) asks the core nothing.
    await userEvent.type(label, '{Enter}');
    expect(fake.count('approvalsReview')).toBe(0);
  });
});
