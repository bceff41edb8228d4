import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import type { ManagedKey } from '../../../../shared/incident.ts';
import { fakeDesk } from '../../testkit/fakeDesk.ts';
import { baseAnswers } from '../../testkit/fixtures.ts';
import { renderWithDesk } from '../../testkit/renderPage.tsx';
import { ManagePanel } from './ManagePanel.tsx';
import { NewSubAccount } from './NewSubAccount.tsx';

// A sub-account's page manages it (its Management panel): Lock (any operator, one confirmation) or Unlock (the change quorum),
// its keys with "Disable key", and "Create key", each drafted for the confirmation window and nothing sent
// from here. The page never holds a key's secret: it shows that the desk signs with a key, not the secret.

const KEY: ManagedKey = {
  name: 'ops.0123456789ab',
  key: 'AKdesk0123456789abcdef',
  key_masked: 'AKde…cdef',
  perms: [
    { name: 'spot', read_only: false },
    { name: 'wallet', read_only: true },
  ],
  ip_whitelist: ['203.0.113.7'],
  created_at: 1_700_000_000,
  last_access: null,
  state: 'normal',
  desk_signs: true,
  seen_by_desk_at: 1_700_000_100_000,
};

const drafted = (kind: string) => ({ ticket: 't1', title: `Draft a ${kind.replace(/_/g, ' ')}`, ref: 'R1' });

function desk(locked: boolean) {
  return fakeDesk({
    ...baseAnswers(),
    subAccountsManaged: [{ user_id: '101', login_name: 'ops', remark: '', locked, desk_key: 'AKde…cdef' }],
    subAccountKeys: [KEY],
    approvalsDraft: (r) => drafted(r.write.kind),
    requestStatus: { ref: 'R1', state: 'to_sign', approved_by: [], needed: 1, rejected: null, expires_at: null, intent: null },
  });
}

describe("a sub-account's management", () => {
  it('drafts a lock for the confirmation window, and says an unlock needs the change quorum', async () => {
    const fake = desk(false);
    renderWithDesk(fake, <ManagePanel uid="101" />);
    expect(await screen.findByText(/Any operator may lock, like a freeze/)).toBeTruthy();
    await userEvent.click(screen.getByRole('button', { name: 'Lock sub-account 101' }));
    await waitFor(() => expect(fake.calls.approvalsDraft).toEqual([{ write: { kind: 'sub_account_lock', input: { user_id: '101' } } }]));

    const lockedDesk = desk(true);
    renderWithDesk(lockedDesk, <ManagePanel uid="101" />);
    expect(await screen.findByText('Locked')).toBeTruthy();
    expect(screen.getByText(/it needs the change quorum/)).toBeTruthy();
    await userEvent.click(screen.getByRole('button', { name: 'Unlock 101' }));
    await waitFor(() =>
      expect(lockedDesk.calls.approvalsDraft).toEqual([{ write: { kind: 'sub_account_unlock', input: { user_id: '101' } } }]),
    );
  });

  it('lists the keys (name, permissions, IP list, created, seen) and drafts "Disable key" for the exact key', async () => {
    const fake = desk(false);
    renderWithDesk(fake, <ManagePanel uid="101" />);
    const row = await screen.findByTestId('key-AKde…cdef');
    const cells = within(row)
      .getAllByRole('cell')
      .map((c) => c.textContent);
    expect(cells.slice(0, 7)).toEqual([
      'ops.0123456789ab',
      'AKde…cdef the desk signs with it',
      'spot, wallet (read)',
      '203.0.113.7',
      '2023-11-14 22:13',
      '—',
      '2023-11-14 22:15',
    ]);
    await userEvent.click(within(row).getByRole('button', { name: 'Disable key AKde…cdef' }));
    await waitFor(() =>
      expect(fake.calls.approvalsDraft).toEqual([
        { write: { kind: 'sub_account_key_delete', input: { user_id: '101', key: 'AKdesk0123456789abcdef' } } },
      ]),
    );
  });

  it('checks "Create key" by the contract before drafting: more than 20 IPs are refused, a good one is drafted', async () => {
    const fake = desk(false);
    renderWithDesk(fake, <ManagePanel uid="101" />);
    const form = await screen.findByRole('form', { name: 'Create key' });
    await userEvent.type(within(form).getByLabelText('Key label'), 'ops');
    await userEvent.type(within(form).getByLabelText(/IP allow-list/), Array.from({ length: 21 }, (_, i) => `10.0.0.${i + 1}`).join(' '));
    await userEvent.click(within(form).getByRole('button', { name: 'Send for signing' }));
    expect((await within(form).findByRole('alert')).textContent).toBe('IP allow-list: at most 20 IPv4 addresses (§5.3)');
    expect(fake.count('approvalsDraft')).toBe(0);

    await userEvent.clear(within(form).getByLabelText(/IP allow-list/));
    await userEvent.type(within(form).getByLabelText(/IP allow-list/), '203.0.113.7');
    await userEvent.click(within(form).getByRole('button', { name: 'Send for signing' }));
    await waitFor(() =>
      expect(fake.calls.approvalsDraft).toEqual([
        {
          write: {
            kind: 'sub_account_key_create',
            input: {
              user_id: '101',
              label: 'ops',
              perms: [
                { name: 'spot', read_only: false },
                { name: 'wallet', read_only: false },
              ],
              ip_whitelist: ['203.0.113.7'],
            },
          },
        },
      ]),
    );
  });
});

describe('New sub-account', () => {
  it('checks the login name by the contract, drafts the create, and offers its first key once the exchange made it', async () => {
    let done = false;
    const fake = fakeDesk({
      ...baseAnswers(),
      approvalsDraft: (r) => drafted(r.write.kind),
      requestStatus: () => ({
        ref: 'R1',
        state: done ? 'sent' : 'to_sign',
        approved_by: done ? ['Alice'] : [],
        needed: 1,
        rejected: null,
        expires_at: null,
        intent: done
          ? ({
              id: 'R1',
              kind: 'sub_account_create',
              client_id: 'incident_ops',
              body: { login_name: 'incident_ops' },
              state: 'done',
              created_at: 1,
              updated_at: 2,
              attempts: 1,
              absent_lookups: 0,
              exchange_id: '10000120',
            } as never)
          : null,
      }),
    });
    renderWithDesk(fake, <NewSubAccount />);
    await userEvent.click(screen.getByRole('button', { name: 'New sub-account' }));
    const form = screen.getByRole('form', { name: 'New sub-account' });
    await userEvent.type(within(form).getByLabelText('Login name'), 'Ops!');
    await userEvent.click(within(form).getByRole('button', { name: 'Send for signing' }));
    expect((await within(form).findByRole('alert')).textContent).toMatch(/^a login name is 4 to 32 lower-case letters/);
    expect(fake.count('approvalsDraft')).toBe(0);

    await userEvent.clear(within(form).getByLabelText('Login name'));
    await userEvent.type(within(form).getByLabelText('Login name'), 'incident_ops');
    await userEvent.click(within(form).getByRole('button', { name: 'Send for signing' }));
    await waitFor(() =>
      expect(fake.calls.approvalsDraft).toEqual([{ write: { kind: 'sub_account_create', input: { login_name: 'incident_ops' } } }]),
    );
    expect(screen.queryByRole('form', { name: /first key/ })).toBeNull();
    done = true;
    fake.emit('approvals', {});
    expect(await screen.findByRole('form', { name: 'Its first key (optional): sub-account 10000120' })).toBeTruthy();
  });
});
