import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import type { IncidentRun, IncidentView } from '../../../../shared/incident.ts';
import { fakeDesk } from '../../testkit/fakeDesk.ts';
import { baseAnswers } from '../../testkit/fixtures.ts';
import { renderWithDesk } from '../../testkit/renderPage.tsx';
import { IncidentPage } from './IncidentPage.tsx';

// The incident page: what the sub-account holds and does, the containment sequence reviewed in order,
// drafted as one batch for one confirmation, and each step's progress as the core reports it.

const VIEW: IncidentView = {
  user_id: '101',
  login_name: 'ops',
  locked: false,
  desk_key: 'AKde…cdef',
  balances: [
    { currency: 'BTC', available: '0.5', locked: '0' },
    { currency: 'USDT', available: '1200', locked: '50' },
  ],
  open_orders: [{ id: '77', currency_pair: 'BTC_USDT', side: 'buy', amount: '0.001', price: '50000' }],
  withdrawals: [{ id: 'w1', currency: 'USDT', amount: '10', address: 'TXabc', status: 'PEND' }],
  transfers: [{ timest: 1_700_000_000, currency: 'USDT', amount: '25', direction: 'to', status: 'SUCCESS' }],
  unread: null,
  steps: [
    { kind: 'sub_account_key_delete', summary: "disable key AKle… (not the desk's)" },
    { kind: 'spot_cancel_all', summary: 'cancel all BTC_USDT orders' },
    { kind: 'main_sub_transfer', summary: 'sweep 0.5 BTC to main' },
    { kind: 'main_sub_transfer', summary: 'sweep 1250 USDT to main' },
    { kind: 'sub_account_lock', summary: 'lock the sub-account' },
    { kind: 'sub_account_key_delete', summary: "disable key AKde… (the desk's own, last)" },
  ],
};

const run = (states: IncidentRun['steps'][number]['state'][], state: IncidentRun['state']): IncidentRun => ({
  ref: 'B1',
  user_id: '101',
  drafted_at: 1_700_000_000_000,
  state,
  held: null,
  steps: VIEW.steps.map((s, i) => ({ ...s, ref: `r${i}`, state: states[i]!, reason: '' })),
});

describe('Incident page', () => {
  it('shows balances, open orders, pending withdrawals and 24 h transfers, and the sequence in the order it runs', async () => {
    renderWithDesk(fakeDesk({ ...baseAnswers(), subAccountIncident: VIEW, subAccountIncidentRuns: [] }), <IncidentPage uid="101" />);
    const balances = await screen.findByTestId('incident-balances');
    expect([...balances.querySelectorAll('tbody tr')].map((r) => r.textContent)).toEqual(['BTC0.50', 'USDT1,20050']);
    expect(screen.getByTestId('incident-orders').textContent).toBe('buy 0.001 BTC_USDT at 50000');
    expect(within(screen.getByRole('region', { name: 'Pending withdrawals' })).getByText('10 USDT to TXabc: PEND')).toBeTruthy();
    expect(screen.getByTestId('incident-transfers').textContent).toMatch(/in from main 25 USDT \(SUCCESS\)/);
    expect([...screen.getByTestId('incident-steps').querySelectorAll('li')].map((l) => l.textContent)).toEqual(
      VIEW.steps.map((s) => s.summary),
    );
  });

  it('drafts the whole sequence once for one confirmation, then shows each step as it runs', async () => {
    let runs: IncidentRun[] = [];
    const fake = fakeDesk({
      ...baseAnswers(),
      subAccountIncident: VIEW,
      subAccountIncidentRuns: () => runs,
      subAccountIncidentDraft: { ticket: 't1', title: 'Draft Contain sub-account 101', ref: 'B1' },
    });
    renderWithDesk(fake, <IncidentPage uid="101" />);
    await userEvent.click(await screen.findByRole('button', { name: 'Contain: send for signing' }));
    expect((await screen.findByRole('status')).textContent).toBe('Draft Contain sub-account 101: sign it in the confirmation window.');
    expect(fake.calls.subAccountIncidentDraft).toEqual([{ user_id: '101' }]);
    expect(screen.queryByRole('button', { name: 'Contain: send for signing' })).toBeNull();

    runs = [run(['done', 'done', 'running', 'pending', 'pending', 'pending'], 'running')];
    fake.emit('incident', { ref: 'B1' });
    const progress = await screen.findByRole('region', { name: 'Containment progress' });
    await waitFor(() =>
      expect(
        within(progress)
          .getAllByTestId('step-state')
          .map((s) => s.textContent),
      ).toEqual(['done', 'done', 'under way', 'waiting', 'waiting', 'waiting']),
    );
    runs = [run(['done', 'done', 'done', 'done', 'done', 'done'], 'finished')];
    fake.emit('incident', { ref: 'B1' });
    await waitFor(() => expect(within(progress).getByTestId('incident-run-state').textContent).toBe('Finished'));
  });
});
