import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { fakeDesk } from '../../testkit/fakeDesk.ts';
import { baseAnswers, intent } from '../../testkit/fixtures.ts';
import { refusal } from '../../testkit/refusal.ts';
import { renderWithDesk } from '../../testkit/renderPage.tsx';
import ActivityPage from './ActivityPage.tsx';

describe('Activity page', () => {
  it('lists a write for review and approves it, keeping focus on its row', async () => {
    const pending = intent();
    const fake = fakeDesk({
      ...baseAnswers(),
      intentsList: { items: [pending], next: null },
      writeApprove: { ...pending, state: 'accepted', exchange_id: 'w123' },
    });
    renderWithDesk(fake, <ActivityPage />, { at: '/activity' });
    const row = (await screen.findByText('Awaiting your approval')).closest('tr')!;
    expect(row.textContent).toContain('2,500.5 USDT to TXkz7nF8cq3PWy7FHLgLFGfBpzyBK5ZNvA (TRX)');
    await userEvent.click(within(row).getByRole('button', { name: 'Approve and send' }));
    expect(fake.calls.writeApprove).toEqual([{ id: 'i-1' }]);
    await waitFor(() => expect(row.textContent).toContain('Accepted by the exchange'));
    expect(within(row).queryByRole('button', { name: 'Approve and send' })).toBeNull();
    expect(document.activeElement).toBe(row);
    expect(row.textContent).toContain('Exchange id: w123');
    // Fee, txid and timeline live with the exchange's record: the row links to it in the withdrawal history.
    expect(
      within(row)
        .getByRole('link', { name: 'Fee, txid and timeline' })
        .getAttribute('href')
        ?.endsWith(`/withdrawals?search=${pending.client_id}`),
    ).toBe(true);
  });

  it("shows a cancellation as the operator's word, and a refusal as a problem", async () => {
    const fake = fakeDesk({
      ...baseAnswers(),
      intentsList: {
        items: [
          intent({ id: 'c', state: 'cancelled', reason: 'cancelled by the operator' }),
          intent({ id: 'r', state: 'refused', label: 'BALANCE_NOT_ENOUGH', reason: 'not enough USDT' }),
        ],
        next: null,
      },
    });
    renderWithDesk(fake, <ActivityPage />, { at: '/activity' });
    const cancelled = await screen.findByText(/Cancelled by the operator/);
    expect(cancelled.className).not.toContain('field-error');
    // The refusal in the label's words, as a problem; the label itself only under "Details".
    const refused = screen.getByText(/does not hold enough available balance/);
    expect(refused.className).toContain('field-error');
    expect(refused.querySelector('details')?.textContent).toContain('BALANCE_NOT_ENOUGH');
    expect(refused.firstChild?.textContent).not.toContain('BALANCE_NOT_ENOUGH');
  });

  it('says a write in doubt has no known outcome yet, with when its doubt ends and the time left', async () => {
    const until = Date.now() + 80_000;
    const fake = fakeDesk({
      ...baseAnswers(),
      intentsList: { items: [intent({ id: 'd', state: 'unconfirmed', attempts: 1, doubt_until: until, reason: 'no answer' })], next: null },
    });
    renderWithDesk(fake, <ActivityPage />, { at: '/activity' });
    const doubt = await screen.findByTestId('in-doubt');
    expect(doubt.textContent).toMatch(
      /^Outcome not known yet: the first request may still reach the exchange\. Nothing is sent again before \d\d:\d\d:\d\d \(1 min (19|20) s left\)/,
    );
    expect(screen.getByText('Outcome not known yet')).toBeTruthy();
  });

  it('names every copy the exchange holds under the write id, and what the desk did', async () => {
    const fake = fakeDesk({
      ...baseAnswers(),
      intentsList: {
        items: [
          intent({
            id: 'w',
            state: 'accepted',
            exchange_id: 'w1',
            duplicates: [{ exchange_id: 'w2', action: 'cancel_asked', status: 'CANCELPEND', reason: 'a second withdrawal' }],
          }),
        ],
        next: null,
      },
    });
    renderWithDesk(fake, <ActivityPage />, { at: '/activity' });
    expect((await screen.findByTestId('duplicate')).textContent).toBe(
      'Copy w2 under the same id: the desk asked to cancel it (CANCELPEND)',
    );
  });

  it('reads "unfinished only" from the address', async () => {
    const fake = fakeDesk({ ...baseAnswers(), intentsList: { items: [], next: null } });
    renderWithDesk(fake, <ActivityPage />, { at: '/activity?show=unfinished' });
    expect(await screen.findByText('No unfinished writes.')).toBeTruthy();
    expect(fake.calls.intentsList![0]).toEqual({ unfinished_only: true, limit: 200 });
    expect(screen.getByRole('link', { name: 'Unfinished' }).getAttribute('aria-current')).toBe('true');
  });

  it('settles a write that needs attention in a dialog that Escape closes', async () => {
    const stuck = intent({
      id: 's',
      state: 'needs_attention',
      kind: 'own_transfer',
      reason: 'the connection dropped',
      body: { currency: 'USDT', amount: '5', from: 'spot', to: 'margin' },
    });
    const fake = fakeDesk({ ...baseAnswers(), intentsList: { items: [stuck], next: null }, writeSettle: { ...stuck, state: 'settled' } });
    renderWithDesk(fake, <ActivityPage />, { at: '/activity' });
    await userEvent.click(await screen.findByRole('button', { name: 'Settle…' }));
    const dialog = screen.getByRole('dialog', { name: 'Settle s' });
    await userEvent.keyboard('{Escape}');
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(dialog.isConnected).toBe(false);
    await userEvent.click(screen.getByRole('button', { name: 'Settle…' }));
    await userEvent.type(screen.getByLabelText('What you checked'), 'spot history shows it');
    await userEvent.click(screen.getByRole('button', { name: 'It happened' }));
    await waitFor(() => expect(fake.calls.writeSettle).toEqual([{ id: 's', outcome: 'done', note: 'spot history shows it' }]));
  });

  it("checks the settle note by the contract's schema, and puts the core's refusal of it on the note", async () => {
    const stuck = intent({
      id: 's',
      state: 'needs_attention',
      kind: 'own_transfer',
      body: { currency: 'USDT', amount: '5', from: 'spot', to: 'margin' },
    });
    const fake = fakeDesk({
      ...baseAnswers(),
      intentsList: { items: [stuck], next: null },
      writeSettle: refusal('writeSettle', ['note'], 'say which record at the exchange you checked') as never,
    });
    renderWithDesk(fake, <ActivityPage />, { at: '/activity' });
    await userEvent.click(await screen.findByRole('button', { name: 'Settle…' }));
    const note = screen.getByLabelText('What you checked');
    await userEvent.click(note);
    await userEvent.paste('x'.repeat(501));
    await userEvent.click(screen.getByRole('button', { name: 'It did not happen' }));
    await waitFor(() => expect(note.getAttribute('aria-invalid')).toBe('true'));
    expect(document.getElementById(note.getAttribute('aria-describedby')!)!.textContent).toBe('At most 500 characters.');
    expect(fake.count('writeSettle')).toBe(0);

    await userEvent.clear(note);
    await userEvent.type(note, 'looked');
    await userEvent.click(screen.getByRole('button', { name: 'It did not happen' }));
    await waitFor(() =>
      expect(document.getElementById(note.getAttribute('aria-describedby') ?? '')?.textContent).toBe(
        'Say which record at the exchange you checked.',
      ),
    );
    expect(fake.calls.writeSettle).toEqual([{ id: 's', outcome: 'not_done', note: 'looked' }]);
    expect(within(screen.getByRole('dialog')).queryByRole('alert')).toBeNull();
  });

  it('keeps the journal notice: a damaged journal stops writes and offers the archive', async () => {
    const fake = fakeDesk({
      ...baseAnswers(),
      journalStatus: { state: 'damaged', damage: { reason: 'entry 3 does not verify', entry: 3, missing: 0 }, recovered: null },
    });
    renderWithDesk(fake, <ActivityPage />, { at: '/activity' });
    expect((await screen.findByText('This profile’s journal failed verification')).textContent).toBeTruthy();
    expect(screen.getByText('entry 3 does not verify')).toBeTruthy();
  });
});
