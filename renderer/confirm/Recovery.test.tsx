import { render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import type { ConfirmApi, ConfirmState } from '../../shared/confirm.ts';
import { ConfirmApp } from './ConfirmApp.tsx';

// The confirmation page offers a recovery only while the core says the desk is wedged, asks the vault's
// passphrase where the desk has a vault, and says what happens meanwhile.

const WEDGED: ConfirmState = {
  tickets: [],
  operators: [{ id: 'op-1', name: 'Alice' }],
  first_operator: null,
  wedged: { why: 'The policy in force for p1 wedges the desk: rule two needs 2 approvers or admins (2 approvals).', credential: 'vault' },
  recovery: null,
  unavailable: null,
  withdrawn: [],
};

function desk(state: ConfirmState) {
  const calls: unknown[] = [];
  const api = {
    confirmState: async () => ({ ok: true, data: state }),
    confirmRecover: async (r: unknown) => {
      calls.push(r);
      return { ok: true, data: { effective_at: Date.parse('2026-11-27T10:00:00Z') } };
    },
    onChanged: () => () => {},
  } as unknown as ConfirmApi;
  return { api, calls };
}

describe('recovery of a wedged desk in the confirmation page', () => {
  it("says why the desk is wedged, asks the reason and the vault's passphrase, and starts the recovery", async () => {
    const d = desk(WEDGED);
    render(<ConfirmApp desk={d.api} />);
    const card = await screen.findByTestId('recovery');
    expect(card.textContent).toContain('rule two needs 2 approvers or admins');
    expect(card.textContent).toMatch(/freezes the desk at once \(nothing is sent meanwhile\)/);
    await userEvent.type(screen.getByLabelText('Why recover'), 'Bob left');
    await userEvent.type(screen.getByLabelText('Vault passphrase'), 'vault passphrase 1');
    await userEvent.click(screen.getByRole('button', { name: 'Start the recovery' }));
    await waitFor(() => expect(d.calls).toEqual([{ reason: 'Bob left', vault_passphrase: 'vault passphrase 1' }]));
    expect((await screen.findByRole('log')).textContent).toMatch(/Recovery started: the desk is frozen/);
  });

  it('offers nothing on a desk that is not wedged', async () => {
    render(<ConfirmApp desk={desk({ ...WEDGED, wedged: null }).api} />);
    await screen.findByTestId('nothing');
    expect(screen.queryByTestId('recovery')).toBeNull();
  });
});
