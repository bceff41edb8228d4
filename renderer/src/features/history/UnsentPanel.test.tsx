import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import type { UnsentItem } from '../../../../shared/history.ts';
import { fakeDesk } from '../../testkit/fakeDesk.ts';
import { baseAnswers } from '../../testkit/fixtures.ts';
import { refusal } from '../../testkit/refusal.ts';
import { renderWithDesk } from '../../testkit/renderPage.tsx';
import { UnsentPanel } from './UnsentPanel.tsx';

// An outflow the journal does not account for, acknowledged with a note checked by the contract's rule.

const ITEM = {
  kind: 'withdrawals',
  id: 'w9',
  currency: 'USDT',
  amount: '40',
  to: 'TXkz7nF8cq3PWy7FHLgLFGfBpzyBK5ZNvA',
  timestamp: '1700000000',
  status: 'DONE',
  flag: 'unsent',
} as unknown as UnsentItem;
const described = (input: HTMLElement) => document.getElementById(input.getAttribute('aria-describedby') ?? '')?.textContent ?? null;

describe('Not sent by this desk', () => {
  it("checks the note by the contract's schema, then puts the core's refusal of it on the note", async () => {
    const fake = fakeDesk({
      ...baseAnswers(),
      unsentList: [ITEM],
      unsentAcknowledge: refusal('unsentAcknowledge', ['note'], 'name who sent it') as never,
    });
    renderWithDesk(fake, <UnsentPanel />);
    const note = await screen.findByLabelText('Note for w9');
    await userEvent.click(note);
    await userEvent.paste('x'.repeat(501));
    await userEvent.click(screen.getByRole('button', { name: 'Acknowledge' }));
    await waitFor(() => expect(described(note)).toBe('At most 500 characters.'));
    expect(fake.count('unsentAcknowledge')).toBe(0);

    await userEvent.clear(note);
    await userEvent.type(note, 'a colleague');
    await userEvent.click(screen.getByRole('button', { name: 'Acknowledge' }));
    await waitFor(() => expect(described(note)).toBe('Name who sent it.'));
    expect(fake.calls.unsentAcknowledge).toEqual([{ kind: 'withdrawals', id: 'w9', note: 'a colleague' }]);
    expect(screen.queryByRole('alert')).toBeNull();
  });
});
