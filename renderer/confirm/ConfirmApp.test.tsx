import { render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import type { ConfirmApi, ConfirmReply, ConfirmState } from '../../shared/confirm.ts';
import { ConfirmApp } from './ConfirmApp.tsx';

// Checking a passphrase (scrypt) and making the signature take seconds: while they run, the ticket says
// so in words a screen reader announces, is marked busy, and nothing in it can be pressed again.

const STATE: ConfirmState = {
  tickets: [
    {
      id: 't-1',
      action: 'draft',
      ref: 'w-1',
      what: 'request',
      payload: JSON.stringify({
        kind: 'withdrawal',
        body: { currency: 'USDT', amount: '250', address: 'TQn9Y2khEsLJW1ChVWFMSMeRDow5KcbLSE', chain: 'TRX' },
        verdict: { decision: 'require', rule: 'confirm-every-write', approvals: 1, drafter_may_approve: true, rules: [] },
      }),
      title: 'Withdraw 250 USDT',
      created_at: 1_795_600_000_000,
    },
  ],
  operators: [{ id: 'op-1', name: 'Alice' }],
  first_operator: null,
  wedged: null,
  recovery: null,
  unavailable: null,
  withdrawn: [],
};

function confirmDesk() {
  let finish: (r: ConfirmReply<{ signed: true; title: string }>) => void = () => {};
  const api = {
    confirmState: async () => ({ ok: true, data: STATE }),
    confirmSign: () => new Promise((resolve) => (finish = resolve)),
    confirmDecline: async () => ({ ok: true, data: { declined: true } }),
    onChanged: () => () => {},
  } as unknown as ConfirmApi;
  return { api, finish: (r: ConfirmReply<{ signed: true; title: string }>) => finish(r) };
}

describe('the confirmation page while a signature is made', () => {
  it('shows a busy, disabled ticket with "Signing…" until the core answers, then the outcome', async () => {
    const desk = confirmDesk();
    render(<ConfirmApp desk={desk.api} />);
    const form = await screen.findByRole('form', { name: 'Sign Withdraw 250 USDT' });
    await userEvent.type(within(form).getByLabelText('Passphrase'), 'alice passphrase');
    expect(form.getAttribute('aria-busy')).toBe('false');
    await userEvent.click(within(form).getByRole('button', { name: 'Sign' }));

    expect(form.getAttribute('aria-busy')).toBe('true');
    expect(within(form).getByRole('status').textContent).toBe('Signing… checking the passphrase and making the signature.');
    // Disabled as a browser sees it (:disabled), the fieldset's own state included.
    expect(within(form).getByRole('button', { name: 'Signing…' }).matches(':disabled')).toBe(true);
    expect(within(form).getByRole('button', { name: 'Decline' }).matches(':disabled')).toBe(true);
    expect(within(form).getByLabelText('Passphrase').matches(':disabled')).toBe(true);
    expect(within(form).getByLabelText('Operator').matches(':disabled')).toBe(true);

    desk.finish({ ok: false, error: { kind: 'invalid_request', message: 'That passphrase does not open Alice’s key.' } });
    await waitFor(() => expect(form.getAttribute('aria-busy')).toBe('false'));
    expect(within(form).getByRole('status').textContent).toBe('');
    expect(within(form).getByRole('alert').textContent).toBe('That passphrase does not open Alice’s key.');
    expect(within(form).getByRole('button', { name: 'Decline' }).matches(':disabled')).toBe(false);
  });
});
