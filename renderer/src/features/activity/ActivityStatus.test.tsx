import { screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { fakeDesk } from '../../testkit/fakeDesk.ts';
import { baseAnswers, intent } from '../../testkit/fixtures.ts';
import { renderWithDesk } from '../../testkit/renderPage.tsx';
import ActivityPage from './ActivityPage.tsx';

// The exchange's status of each write is read from its own kind's table (§3.1–3.5, the live order states).
describe('Activity: the status at the exchange', () => {
  it('names finished transfers and orders in words, and keeps "Unknown status" for an unlisted value', async () => {
    const order = { currency_pair: 'BTC_USDT', side: 'buy', type: 'limit', amount: '0.1', price: '30000', text: 't-a' };
    const fake = fakeDesk({
      ...baseAnswers(),
      intentsList: {
        items: [
          intent({
            id: 'tr',
            kind: 'main_sub_transfer',
            state: 'done',
            status: 'SUCCESS',
            body: { currency: 'USDT', amount: '5', sub_account: '1001', direction: 'to' },
          }),
          intent({ id: 'open', kind: 'spot_order', state: 'accepted', status: 'open', body: order }),
          intent({ id: 'filled', kind: 'spot_order', state: 'done', status: 'closed', body: order }),
          intent({
            id: 'cancel',
            kind: 'spot_cancel',
            state: 'done',
            status: 'cancelled',
            body: { currency_pair: 'BTC_USDT', order_id: '9' },
          }),
          intent({ id: 'odd', kind: 'withdrawal', state: 'accepted', status: 'SPLITPEND' }),
        ],
        next: null,
      },
    });
    renderWithDesk(fake, <ActivityPage />, { at: '/activity' });
    await screen.findByTestId('intents');
    const status = (id: string) => {
      const row = document.querySelector<HTMLElement>(`tr[data-intent="${id}"]`)!;
      return within(row).getByTestId('exchange-status');
    };
    expect(status('tr').textContent).toBe('Status: SUCCESS Done: the amount moved');
    expect(status('tr').dataset.tone).toBe('ok');
    expect(status('open').textContent).toBe('Status: open On the book, waiting to be filled');
    expect(status('filled').textContent).toBe('Status: closed Filled in full');
    expect(status('cancel').textContent).toContain('Cancelled');
    for (const id of ['tr', 'open', 'filled', 'cancel']) expect(status(id).textContent).not.toContain('Unknown status');
    expect(status('odd').textContent).toContain('Unknown status "SPLITPEND" (watched until it changes)');
  });
});
