import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { fakeDesk } from '../../testkit/fakeDesk.ts';
import { baseAnswers, OPEN_VAULT } from '../../testkit/fixtures.ts';
import { refusal } from '../../testkit/refusal.ts';
import { renderWithDesk } from '../../testkit/renderPage.tsx';
import { LockScreen } from './LockScreen.tsx';

// The lock screen's one field, checked by the contract's vaultUnlock request and cleared after each try.

const described = (input: HTMLElement) => document.getElementById(input.getAttribute('aria-describedby') ?? '')?.textContent ?? null;

describe('Lock screen', () => {
  it('refuses a passphrase the contract cannot carry at its field, and asks the core nothing', async () => {
    const fake = fakeDesk({ ...baseAnswers(), vaultUnlock: OPEN_VAULT });
    renderWithDesk(fake, <LockScreen keychain={false} waitMs={0} />);
    const input = await screen.findByLabelText('Passphrase');
    await userEvent.click(input);
    await userEvent.paste('x'.repeat(1025));
    await userEvent.click(screen.getByRole('button', { name: 'Unlock' }));
    await waitFor(() => expect(input.getAttribute('aria-invalid')).toBe('true'));
    expect(described(input)).toBe('At most 1024 characters.');
    expect(fake.count('vaultUnlock')).toBe(0);
  });

  it("puts the core's refusal of the passphrase on its field and clears what was typed", async () => {
    const fake = fakeDesk({
      ...baseAnswers(),
      vaultUnlock: refusal('vaultUnlock', ['passphrase'], 'this desk has a keychain: leave the passphrase empty') as never,
    });
    renderWithDesk(fake, <LockScreen keychain={false} waitMs={0} />);
    const input = (await screen.findByLabelText('Passphrase')) as HTMLInputElement;
    await userEvent.type(input, 'correct horse battery');
    await userEvent.click(screen.getByRole('button', { name: 'Unlock' }));
    await waitFor(() => expect(input.getAttribute('aria-invalid')).toBe('true'));
    expect(described(input)).toBe('This desk has a keychain: leave the passphrase empty.');
    expect(input.value).toBe('');
    expect(fake.calls.vaultUnlock).toEqual([{ passphrase: 'correct horse battery' }]);
    expect(screen.queryByRole('alert')).toBeNull();
  });

  it('shows a wrong passphrase in a panel, not on the field, and clears it for the next try', async () => {
    const fake = fakeDesk({
      ...baseAnswers(),
      vaultUnlock: { ok: false, error: { kind: 'locked', message: 'That passphrase does not open the vault.' } } as never,
    });
    renderWithDesk(fake, <LockScreen keychain={false} waitMs={0} />);
    const input = (await screen.findByLabelText('Passphrase')) as HTMLInputElement;
    await userEvent.type(input, 'wrong passphrase');
    await userEvent.click(screen.getByRole('button', { name: 'Unlock' }));
    expect((await screen.findByRole('alert')).textContent).toContain('That passphrase does not open the vault.');
    expect(input.value).toBe('');
    expect(input.getAttribute('aria-invalid')).toBeNull();
  });
});
