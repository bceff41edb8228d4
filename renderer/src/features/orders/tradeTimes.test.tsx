import { screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import type { SpotTrade } from '../../../../shared/api/orders.ts';
import { fakeDesk } from '../../testkit/fakeDesk.ts';
import { baseAnswers } from '../../testkit/fixtures.ts';
import { renderWithDesk } from '../../testkit/renderPage.tsx';
import { OrderLists } from './OrderLists.tsx';
import { timeOfDay } from '../../components/localTime.ts';

// A trade made at 12:19 showed 6:46:49 PM: the Sandbox sent seconds where the live service sends
// milliseconds. The Trades table shows the instant the trade happened, from either.

function trade(id: string, create_time: string, create_time_ms: string): SpotTrade {
  return {
    id,
    create_time,
    create_time_ms,
    currency_pair: 'BTC_USDT',
    side: 'buy',
    role: 'taker',
    amount: '0.01',
    price: '60000',
    order_id: '7',
    fee: '0.00002',
    fee_currency: 'BTC',
    point_fee: '0',
    gt_fee: '0',
    amend_text: '-',
    sequence_id: id,
    text: 't-a',
  };
}

describe('the Trades table', () => {
  it('shows when each trade happened, from milliseconds as the live service sends them', async () => {
    const at = Date.UTC(2026, 10, 25, 12, 19, 43, 367);
    const sec = String(Math.floor(at / 1000));
    const fake = fakeDesk({
      ...baseAnswers(),
      spotOrders: [],
      spotTrades: [trade('1', sec, `${at}.000`), trade('2', sec, `${sec}.367`)],
    });
    renderWithDesk(fake, <OrderLists pair="BTC_USDT" />);
    const live = await screen.findByText((_, el) => el?.tagName === 'TR' && el.getAttribute('data-trade') === '1');
    const seconds = document.querySelector('tr[data-trade="2"]')!;
    const shown = timeOfDay(at);
    expect(live.querySelector('td')!.textContent).toBe(shown);
    expect(seconds.querySelector('td')!.textContent).toBe(timeOfDay(Number(sec) * 1000));
    expect(seconds.querySelector('td')!.textContent).toBe(shown);
  });
});
