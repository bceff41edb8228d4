import { render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import type { ConfirmApi, ConfirmState } from '../../shared/confirm.ts';
import { ConfirmApp } from './ConfirmApp.tsx';

// A new operator makes their key at their own desk and reads out its enrolment code; an operator at
// another desk proposes them with that code, typing no passphrase of theirs.

const STATE: ConfirmState = {
  tickets: [],
  operators: [{ id: 'op-1', name: 'Alice' }],
  first_operator: null,
  wedged: null,
  recovery: null,
  unavailable: null,
  withdrawn: [],
};
const CODE = 'tdop1.9b1d.MCowBQYDK2VwAyEAq83vEixV7vXkE8hCj1cYb0ZfN8Gr3xo9U1oI7T4W0yY=';
const FINGERPRINT = '3F2A-9BC1-0D4E-77A0-C5B2';

function desk() {
  const calls: [string, unknown][] = [];
  const api = {
    confirmState: async () => ({ ok: true, data: STATE }),
    confirmMakeOperatorKey: async (r: unknown) => {
      calls.push(['make', r]);
      return { ok: true, data: { id: '9b1d', enrolment: CODE, fingerprint: FINGERPRINT } };
    },
    confirmProposeOperator: async (r: unknown) => {
      calls.push(['propose', r]);
      return {
        ok: false,
        error: { kind: 'invalid_request', message: "That public key is Alice's already; each operator makes their own." },
      };
    },
    onChanged: () => () => {},
  } as unknown as ConfirmApi;
  return { api, calls };
}

describe('an operator key made at its operator’s own desk', () => {
  it('is made from a name and passphrase typed here, and shows the enrolment code and the fingerprint to read out', async () => {
    const d = desk();
    render(<ConfirmApp desk={d.api} />);
    const card = await screen.findByRole('group', { name: 'Make my operator key' });
    await userEvent.click(within(card).getByText(/^Make my operator key here/));
    await userEvent.type(within(card).getByLabelText('Your name'), 'Bob');
    await userEvent.type(within(card).getByLabelText('Your passphrase'), 'bob passphrase 22');
    await userEvent.click(within(card).getByRole('button', { name: 'Make my key' }));
    expect(((await within(card).findByLabelText('Enrolment code')) as HTMLTextAreaElement).value).toBe(CODE);
    expect(within(card).getByTestId('enrolment-fingerprint').textContent).toBe(FINGERPRINT);
    expect(d.calls).toEqual([['make', { name: 'Bob', passphrase: 'bob passphrase 22' }]]);
  });

  it('is proposed at another desk by its code and the fingerprint heard, and a refusal is shown as the core words it', async () => {
    const d = desk();
    render(<ConfirmApp desk={d.api} />);
    const card = await screen.findByRole('group', { name: 'Propose an operator' });
    await userEvent.click(within(card).getByText('Propose a new operator'));
    await userEvent.type(within(card).getByLabelText('New operator name'), 'Bob');
    expect(within(card).getByLabelText("New operator's passphrase")).toBeTruthy();
    await userEvent.type(within(card).getByLabelText('Enrolment code'), CODE);
    // With a code, no passphrase of the new operator's is asked at this desk.
    expect(within(card).queryByLabelText("New operator's passphrase")).toBeNull();
    await userEvent.type(within(card).getByLabelText('Key fingerprint'), FINGERPRINT);
    await userEvent.type(within(card).getByLabelText("Proposer's passphrase"), 'alice passphrase 1');
    await userEvent.click(within(card).getByRole('button', { name: 'Propose operator' }));
    expect((await within(card).findByRole('alert')).textContent).toBe("That public key is Alice's already; each operator makes their own.");
    expect(d.calls).toEqual([
      [
        'propose',
        { name: 'Bob', enrolment: CODE, enrolment_fingerprint: FINGERPRINT, by: 'op-1', passphrase: 'alice passphrase 1', role: 'admin' },
      ],
    ]);
  });
});
