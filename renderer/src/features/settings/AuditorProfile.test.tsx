import { QueryClientProvider } from '@tanstack/react-query';
import { render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { describe, expect, it } from 'vitest';
import type { ProfileSummary } from '../../../../shared/ipc.ts';
import { pageRoutes } from '../../app/router.tsx';
import { createDesk, DeskProvider } from '../../desk/DeskProvider.tsx';
import { fakeDesk, type FakeDesk } from '../../testkit/fakeDesk.ts';
import { APPROVALS, baseAnswers, SANDBOX_PROFILE } from '../../testkit/fixtures.ts';
import { renderWithDesk, testQueryClient } from '../../testkit/renderPage.tsx';
import SettingsPage from './SettingsPage.tsx';

// An auditor profile in the window: Settings offers it without key fields, the exchange's pages say it
// has no key instead of asking, and its Approvals page shows the team's queue with nothing to press.

const AUDITOR: ProfileSummary = {
  id: 'audit-1',
  name: 'Audit',
  environment: 'live',
  base_url: 'https://api.gateio.ws/api/v4',
  svc: 'Gate',
  key_masked: '',
  permissions: { spot: 'none', futures: 'none', delivery: 'none', wallet: 'none', withdraw: 'none', unified: false },
  sub_keys: [],
  built_in: false,
  auditor: true,
};

const READ_ONLY =
  "this is an auditor profile: it has no exchange key; it reads and verifies the approvals' queue and records, and signs and sends nothing";

function auditorDesk(): FakeDesk {
  return fakeDesk({
    ...baseAnswers(),
    profileCurrent: AUDITOR,
    profilesList: { active_id: AUDITOR.id, profiles: [SANDBOX_PROFILE, AUDITOR] },
    approvalsState: {
      ...APPROVALS,
      read_only: READ_ONLY,
      items: [
        {
          ref: 't-1',
          what: 'request',
          profile: 'p-live',
          kind: 'withdrawal',
          body: { currency: 'USDT', amount: '125', address: 'TXkz', chain: 'TRX' },
          verdict: { decision: 'require', rule: 'two', approvals: 2, drafter_may_approve: true, rules: [] },
          summary: '125 USDT to TXkz on TRX',
          drafted_by: 'Alice',
          drafted_at: 1_700_000_000_000,
          approved_by: ['Alice'],
          needed: 2,
          state: 'waiting',
          expires_at: 1_700_086_400_000,
          effective_at: null,
          rejected: null,
          desks: { drafted: 'desk-aaaa', signed: [{ name: 'Alice', desk: 'desk-aaaa' }], here: 'desk-cccc' },
        },
      ],
    },
  });
}

function renderApp(fake: FakeDesk, at: string) {
  render(
    <DeskProvider desk={createDesk(fake.api)}>
      <QueryClientProvider client={testQueryClient()}>
        <RouterProvider router={createMemoryRouter(pageRoutes(), { initialEntries: [at] })} />
      </QueryClientProvider>
    </DeskProvider>,
  );
}

describe('an auditor profile', () => {
  it('is offered by Settings → Add a profile with a name and an environment, and no key or secret', async () => {
    const fake = fakeDesk({
      ...baseAnswers(),
      profileSaveAuditor: (req) => ({ ...AUDITOR, name: req.name, environment: req.environment }),
    });
    renderWithDesk(fake, <SettingsPage />, { at: '/settings' });
    await userEvent.click(await screen.findByRole('button', { name: 'Add a profile' }));
    await userEvent.click(screen.getByRole('radio', { name: /Auditor: no exchange key/ }));
    const form = screen.getByRole('form', { name: 'New auditor profile' });
    expect(within(form).queryByLabelText('API key')).toBeNull();
    expect(within(form).queryByLabelText('API secret')).toBeNull();
    expect(within(form).queryByLabelText('Base address')).toBeNull();
    await userEvent.type(within(form).getByLabelText('Name'), 'Audit');
    await userEvent.selectOptions(within(form).getByLabelText('Environment it audits'), 'sandbox');
    await userEvent.click(within(form).getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(fake.calls.profileSaveAuditor).toEqual([{ name: 'Audit', environment: 'sandbox' }]));
    expect(fake.count('profileSave')).toBe(0);
  });

  it('is listed with no key', async () => {
    renderWithDesk(auditorDesk(), <SettingsPage />, { at: '/settings' });
    const row = await screen.findByRole('row', { name: 'Profile Audit' });
    expect(row.textContent).toContain('no key (auditor)');
  });

  it('has an Overview that says it has no exchange key, and asks nothing of the exchange', async () => {
    const fake = auditorDesk();
    renderApp(fake, '/overview');
    const notice = await screen.findByTestId('auditor-profile');
    expect(notice.textContent).toMatch(/^This is an auditor profile: it has no exchange key\./);
    expect(screen.getByRole('heading', { level: 1, name: 'Overview' })).toBeTruthy();
    expect(within(notice).getByRole('link', { name: 'Approvals' }).getAttribute('href')).toBe('/approvals');
    expect(screen.getByTestId('profile').textContent).toBe('live Audit · auditor, no key');
    expect(fake.count('totalBalance')).toBe(0);
    expect(fake.count('balancesMain')).toBe(0);
    expect(screen.queryByRole('alert')).toBeNull();
  });

  it('says the same on the sub-accounts, histories and forms', async () => {
    const fake = auditorDesk();
    renderApp(fake, '/transfers?new=own');
    expect((await screen.findByTestId('auditor-profile')).textContent).toContain('it has no exchange key');
    expect(fake.count('balancesMain')).toBe(0);
    expect(fake.count('transfersList')).toBe(0);
  });

  it("has an Approvals page with the team's queue and where each signed, and no button to sign, send or freeze", async () => {
    renderApp(auditorDesk(), '/approvals');
    const main = await screen.findByRole('main');
    await within(main).findByText('125 USDT to TXkz on TRX');
    expect(within(main).getByTestId('read-only').textContent).toMatch(/^This is an auditor profile: it has no exchange key/);
    expect(main.textContent).toContain('desk-aaaa');
    // Only the top bar's tray of notices: no Freeze, no Approve or Reject, nothing to propose or send.
    expect(
      within(main)
        .queryAllByRole('button')
        .map((b) => b.textContent),
    ).toEqual(['Notices']);
    // The sidebar keeps the records' pages.
    const nav = screen.getByRole('navigation', { name: 'Pages' });
    for (const page of ['Approvals', 'Journal', 'Settings']) expect(within(nav).getByRole('link', { name: page })).toBeTruthy();
  });
});
