import { screen, waitFor } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import type { RequestStatus } from '../../../../shared/ipc.ts';
import { fakeDesk } from '../../testkit/fakeDesk.ts';
import { baseAnswers, intent } from '../../testkit/fixtures.ts';
import { renderWithDesk } from '../../testkit/renderPage.tsx';
import { RequestOutcome } from './RequestOutcome.tsx';

const toSign: RequestStatus = { ref: 'r-1', state: 'to_sign', approved_by: [], needed: 2, rejected: null, expires_at: null, intent: null };

function setup() {
  let status = toSign;
  const fake = fakeDesk({ ...baseAnswers(), requestStatus: () => status });
  const view = renderWithDesk(fake, <RequestOutcome requestRef="r-1" title="Draft a withdrawal" />);
  const words = () => screen.getByTestId('awaiting-signature').textContent ?? '';
  /** The core's state moves on, then announces it as it does: an `approvals` or an `intent` event. */
  const move = (next: RequestStatus) => {
    status = next;
    if (next.intent) fake.emit('intent', next.intent);
    else fake.emit('approvals', {});
  };
  return { fake, view, words, move };
}

describe('RequestOutcome: a drafted request followed in place', () => {
  it('goes from the signature to the final status, in words, with the link to its record', async () => {
    const { words, move } = setup();
    await waitFor(() => expect(words()).toMatch(/Waiting for a signature in the confirmation window: “Draft a withdrawal”/));

    move({ ...toSign, state: 'waiting', approved_by: ['Ann'] });
    await waitFor(() => expect(words()).toMatch(/Signed\. Waiting for approvals: 1 of 2 \(Ann\)/));

    const sent = intent({ id: 'r-1', client_id: 'r-1', state: 'in_flight', attempts: 1 });
    move({ ...toSign, state: 'sent', approved_by: ['Ann', 'Bo'], intent: sent });
    await waitFor(() => expect(words()).toMatch(/Sent: waiting for the exchange’s answer/));

    const accepted = { ...sent, state: 'accepted' as const, exchange_id: 'w-77', status: 'PEND', updated_at: sent.updated_at + 1 };
    move({ ...toSign, state: 'sent', approved_by: ['Ann', 'Bo'], intent: accepted });
    await waitFor(() => expect(words()).toMatch(/Accepted by the exchange \(exchange id w-77; PEND: .+\)\. Waiting for its final status/));

    const done = { ...accepted, state: 'done' as const, status: 'DONE', updated_at: accepted.updated_at + 1 };
    move({ ...toSign, state: 'sent', approved_by: ['Ann', 'Bo'], intent: done });
    await waitFor(() => expect(words()).toMatch(/^Done \(exchange id w-77; DONE: /));
    expect(screen.getByTestId('request-outcome').dataset.ended).toBe('true');
    const link = screen.getByRole('link', { name: /Its record: fee, txid and timeline/ });
    expect(link.getAttribute('href')).toBe('/withdrawals?search=r-1');
    expect(screen.getByRole('listitem', { current: 'step' }).textContent).toBe('Final status');
  });

  it('says when the exchange refused it, and links a transfer to its row in Activity', async () => {
    const { words, move } = setup();
    await waitFor(() => expect(words()).toMatch(/Waiting for a signature/));
    const refused = intent({
      id: 'r-1',
      kind: 'main_sub_transfer',
      state: 'refused',
      label: 'BALANCE_NOT_ENOUGH',
      reason: 'balance not enough',
    });
    move({ ...toSign, state: 'sent', approved_by: ['Ann'], intent: refused });
    await waitFor(() =>
      expect(words()).toMatch(/Refused by the exchange: nothing moved\. The account does not hold enough available balance for this\./),
    );
    expect(screen.getByRole('link', { name: 'Its record in Activity' }).getAttribute('href')).toBe('/activity?intent=r-1');
  });

  it('says when the draft was declined or rejected: nothing was sent', async () => {
    const { words, move } = setup();
    await waitFor(() => expect(words()).toMatch(/Waiting for a signature/));
    move({ ...toSign, state: 'gone' });
    await waitFor(() => expect(words()).toMatch(/no longer waiting in the confirmation window and was never signed.*Nothing was sent/));
    move({ ...toSign, state: 'rejected', approved_by: ['Ann'], rejected: { by: 'Bo', reason: 'wrong address' } });
    await waitFor(() => expect(words()).toBe('Rejected by Bo: wrong address. Nothing was sent.'));
  });
});
