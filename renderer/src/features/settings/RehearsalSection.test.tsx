import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { fakeDesk } from '../../testkit/fakeDesk.ts';
import { baseAnswers, SANDBOX_PROFILE } from '../../testkit/fixtures.ts';
import { renderWithDesk } from '../../testkit/renderPage.tsx';
import { RehearsalSection } from './RehearsalSection.tsx';

// The "Rehearse a team" card: the first desk's "Invite a desk" shows the code to copy; the second desk's
// "Join a rehearsal" sends the pasted code and the password and says where its Sandbox profile now trades.

const CODE = 'tdrh1.eyJzYW5kYm94IjoiaHR0cDovLzEyNy4wLjAuMTo0MTIzNC9hcGkvdjQifQ';

describe('the rehearsal card', () => {
  it('shows the invitation the core made', async () => {
    const fake = fakeDesk({
      ...baseAnswers(),
      teamInvite: { invitation: CODE, sandbox: 'http://127.0.0.1:41234/api/v4', team: { host: '127.0.0.1:5432', database: 'team' } },
    });
    renderWithDesk(fake, <RehearsalSection />, { at: '/settings' });
    await userEvent.click(await screen.findByRole('button', { name: 'Invite a desk' }));
    expect(((await screen.findByTestId('rehearsal-invitation')) as HTMLTextAreaElement).value).toBe(CODE);
    expect(screen.getByRole('status').textContent).toMatch(
      /this Sandbox \(http:\/\/127\.0\.0\.1:41234\/api\/v4\), and the team store 127\.0\.0\.1:5432\/team/,
    );
  });

  it('joins with the pasted code and password, and shows a refusal', async () => {
    const answers = { ...baseAnswers(), teamJoinRehearsal: { sandbox: 'http://127.0.0.1:41234/api/v4', team: 'joined' as const } };
    const fake = fakeDesk(answers);
    renderWithDesk(fake, <RehearsalSection />, { at: '/settings' });
    await userEvent.type(await screen.findByLabelText(/^Invitation/), ` ${CODE} `);
    await userEvent.type(screen.getByLabelText(/^Team store password/), 'pw');
    await userEvent.click(screen.getByRole('button', { name: 'Join a rehearsal' }));
    expect((await screen.findByTestId('rehearsal-joined')).textContent).toBe(
      'The Sandbox profile now trades on http://127.0.0.1:41234/api/v4. Joined its team.',
    );
    expect(fake.calls.teamJoinRehearsal).toEqual([{ invitation: CODE, password: 'pw' }]);
    fake.answers.teamJoinRehearsal = new Error("The invitation's key must be a Sandbox key (hex).");
    await userEvent.click(screen.getByRole('button', { name: 'Join a rehearsal' }));
    await waitFor(() => expect(screen.getByRole('alert').textContent).toMatch(/The invitation's key must be a Sandbox key/));
  });

  it('offers neither while a stored (live) profile is active', async () => {
    const fake = fakeDesk({ ...baseAnswers(), profileCurrent: { ...SANDBOX_PROFILE, id: 'p1', built_in: false, environment: 'live' } });
    renderWithDesk(fake, <RehearsalSection />, { at: '/settings' });
    expect((await screen.findByText(/^Choose the Sandbox profile to invite a desk or join a rehearsal/)).textContent).toMatch(
      /a live key never goes into an invitation/,
    );
    expect(screen.queryByRole('button', { name: 'Invite a desk' })).toBeNull();
    expect(screen.queryByRole('button', { name: 'Join a rehearsal' })).toBeNull();
  });
});
