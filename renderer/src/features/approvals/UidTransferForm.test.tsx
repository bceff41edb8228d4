import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { fakeDesk } from '../../testkit/fakeDesk.ts';
import { baseAnswers } from '../../testkit/fixtures.ts';
import { refusal } from '../../testkit/refusal.ts';
import { renderWithDesk } from '../../testkit/renderPage.tsx';
import { UidTransferForm } from './UidTransferForm.tsx';

describe('New UID transfer', () => {
  it("names a bad field by the contract's schema and asks for nothing, then reviews the transfer as the core builds it", async () => {
    const fake = fakeDesk({
      ...baseAnswers(),
      approvalsReview: {
        kind: 'uid_transfer',
        body: { receive_uid: '10042', currency: 'USDT', amount: '7.5' },
        verdict: { decision: 'require', rule: 'confirm-every-write', approvals: 1, drafter_may_approve: true, rules: [] },
        destination_note: 'user 10042: another account, on no list',
      },
    });
    renderWithDesk(fake, <UidTransferForm />);
    await userEvent.type(screen.getByLabelText("Receiver's user id"), 'bob');
    await userEvent.type(screen.getByLabelText('Amount'), '7.123456789');
    await userEvent.click(screen.getByRole('button', { name: 'Review' }));
    expect(
      (await screen.findByText('Must be a user id (digits).')).closest('.field')?.querySelector('input')?.getAttribute('aria-invalid'),
    ).toBe('true');
    expect(screen.getByText(/^Amount .*8 decimal places/)).toBeTruthy();
    expect(fake.count('approvalsReview')).toBe(0);

    await userEvent.clear(screen.getByLabelText("Receiver's user id"));
    await userEvent.type(screen.getByLabelText("Receiver's user id"), '10042');
    await userEvent.clear(screen.getByLabelText('Amount'));
    await userEvent.type(screen.getByLabelText('Amount'), '7.5');
    await userEvent.click(screen.getByRole('button', { name: 'Review' }));
    await waitFor(() =>
      expect(fake.calls.approvalsReview).toEqual([
        { write: { kind: 'uid_transfer', input: { receive_uid: '10042', currency: 'USDT', amount: '7.5' } } },
      ]),
    );
    expect(await screen.findByRole('button', { name: 'Send for signing' })).toBeTruthy();
  });

  it("puts a refusal of the core on the receiver's field", async () => {
    const fake = fakeDesk({
      ...baseAnswers(),
      approvalsReview: refusal('approvalsReview', ['write', 'input', 'receive_uid'], 'This user id is the desk’s own account.') as never,
    });
    renderWithDesk(fake, <UidTransferForm />);
    await userEvent.type(screen.getByLabelText("Receiver's user id"), '10042');
    await userEvent.type(screen.getByLabelText('Amount'), '7.5');
    await userEvent.click(screen.getByRole('button', { name: 'Review' }));
    const uid = screen.getByLabelText("Receiver's user id");
    await waitFor(() => expect(uid.getAttribute('aria-invalid')).toBe('true'));
    expect(document.getElementById(uid.getAttribute('aria-describedby')!)!.textContent).toBe('This user id is the desk’s own account.');
    expect(screen.queryByRole('alert')).toBeNull();
  });
});
