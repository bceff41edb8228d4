import { act, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import type { TeamConnectionTest, TeamStatus, VaultStatus } from '../../../../shared/ipc.ts';
import { fakeDesk } from '../../testkit/fakeDesk.ts';
import { baseAnswers, SANDBOX_PROFILE } from '../../testkit/fixtures.ts';
import { refusal } from '../../testkit/refusal.ts';
import { renderWithDesk } from '../../testkit/renderPage.tsx';
import SettingsPage from './SettingsPage.tsx';

const NO_KEYCHAIN: VaultStatus = {
  locked: false,
  backend: null,
  passphrase_set: false,
  unlock_wait_ms: 0,
  keychain_note: 'The system keyring is not available here. Set a passphrase to protect the keys.',
};
const PASSPHRASE: VaultStatus = {
  locked: false,
  backend: 'passphrase',
  passphrase_set: true,
  unlock_wait_ms: 0,
  keychain_note: NO_KEYCHAIN.keychain_note,
};

/** The message tied to an input (the last of its descriptions: a hint comes first). */
const described = (input: HTMLElement) =>
  document.getElementById(input.getAttribute('aria-describedby')?.split(' ').at(-1) ?? '')?.textContent ?? null;

describe('Settings page', () => {
  it("tests a team store's connection and says what it found, in words, without showing the password again", async () => {
    const answers: TeamConnectionTest[] = [
      { reached: false, reason: 'Could not reach the team store: connect ECONNREFUSED 127.0.0.1:5432.' },
      { reached: true, server: '16.4', team: { records: 0 } },
      { reached: true, server: '16.4', team: { records: 12, founding: 'ab12cd34' } },
    ];
    const fake = fakeDesk({ ...baseAnswers(), teamTest: () => answers.shift()! });
    renderWithDesk(fake, <SettingsPage />, { at: '/settings' });
    const card = await screen.findByTestId('team');
    const button = within(card).getByRole('button', { name: 'Test connection' });
    expect(button).toHaveProperty('disabled', true);
    await userEvent.type(within(card).getByLabelText('URL'), 'postgresql://desk@127.0.0.1/team');
    await userEvent.type(within(card).getByLabelText('Password'), 'hunter2');
    await userEvent.click(button);
    await waitFor(() =>
      expect(within(card).getByTestId('team-test').textContent).toBe(
        answers.length === 2 ? 'Could not reach the team store: connect ECONNREFUSED 127.0.0.1:5432.' : '',
      ),
    );
    expect(fake.calls.teamTest).toEqual([{ url: 'postgresql://desk@127.0.0.1/team', password: 'hunter2' }]);
    await userEvent.click(button);
    await waitFor(() =>
      expect(within(card).getByTestId('team-test').textContent).toBe(
        'Reached PostgreSQL 16.4: the store is empty, a team can be founded in it.',
      ),
    );
    await userEvent.click(button);
    await waitFor(() =>
      expect(within(card).getByTestId('team-test').textContent).toBe(
        "Reached PostgreSQL 16.4: a team with 12 records. Its founding record is ab12cd34: compare it with the founding desk's before joining.",
      ),
    );
    expect(card.textContent).not.toContain('hunter2');
  });

  const LINK = 'ab'.repeat(32);
  const JOINED: TeamStatus = {
    domain: 'sandbox',
    team: { host: 'db.example.com:5432', database: 'team', how: 'joined', founding: LINK, state: 'online', reason: null },
  };

  async function typeConnection(card: HTMLElement) {
    await userEvent.type(within(card).getByLabelText('URL'), 'postgresql://desk@db.example.com/team?sslmode=verify-full');
    await userEvent.type(within(card).getByLabelText('Password'), 'hunter2');
    await userEvent.click(within(card).getByRole('button', { name: 'Test connection' }));
  }

  it('joins a team only once the operator says its founding record matches, pinning exactly that record', async () => {
    const fake = fakeDesk({
      ...baseAnswers(),
      teamTest: { reached: true, server: '16.4', team: { records: 12, founding: LINK } },
      teamJoin: () => {
        fake.answers.teamStatus = JOINED;
        return { joined: true };
      },
    });
    renderWithDesk(fake, <SettingsPage />, { at: '/settings' });
    const card = await screen.findByTestId('team');
    expect((await within(card).findByTestId('team-status')).textContent).toBe(
      "The approvals of the Sandbox's play money are kept in this desk's own journal: no team store.",
    );
    await typeConnection(card);
    const join = await within(card).findByRole('button', { name: 'Join this team' });
    expect(within(card).queryByRole('button', { name: 'Found the team here' })).toBeNull();
    expect(join).toHaveProperty('disabled', true);
    await userEvent.click(within(card).getByLabelText(/The founding record above is the one the founding desk shows/));
    await userEvent.click(join);
    expect(fake.calls.teamJoin).toEqual([
      { url: 'postgresql://desk@db.example.com/team?sslmode=verify-full', password: 'hunter2', founding: LINK },
    ]);
    await waitFor(() =>
      expect(within(card).getByTestId('team-status').textContent).toBe(
        `The approvals of the Sandbox's play money are on the team store db.example.com:5432/team (joined).Pinned founding record: ${LINK}Online: read and verified now.`,
      ),
    );
    expect(within(card).queryByLabelText('URL')).toBeNull();
    expect(card.textContent).not.toContain('hunter2');
  });

  it('founds a team in an empty store through the confirmation window, and shows a refusal without changing the status', async () => {
    let refuse = true;
    const fake = fakeDesk({
      ...baseAnswers(),
      teamTest: { reached: true, server: '16.4', team: { records: 0 } },
      teamFound: () =>
        refuse
          ? refusal('teamFound', ['url'], 'the team store at db.example.com:5432/team holds a team already: join it instead.')
          : { ticket: 't-1', title: "Found a team on db.example.com:5432/team with this desk's 4 governance records" },
    });
    renderWithDesk(fake, <SettingsPage />, { at: '/settings' });
    const card = await screen.findByTestId('team');
    await typeConnection(card);
    expect(within(card).queryByRole('button', { name: 'Join this team' })).toBeNull();
    await userEvent.click(await within(card).findByRole('button', { name: 'Found the team here' }));
    expect((await within(card).findByRole('alert')).textContent).toContain('holds a team already: join it instead.');
    expect(within(card).getByTestId('team-status').textContent).toContain('no team store');
    refuse = false;
    await userEvent.click(within(card).getByRole('button', { name: 'Found the team here' }));
    expect((await within(card).findByTestId('team-waiting')).textContent).toBe(
      "Waiting in the confirmation window: Found a team on db.example.com:5432/team with this desk's 4 governance records.",
    );
    expect(fake.calls.teamFound?.at(-1)).toEqual({ url: 'postgresql://desk@db.example.com/team?sslmode=verify-full', password: 'hunter2' });
    // The first operator signs: the core's approvals event brings the team's status.
    fake.answers.teamStatus = { ...JOINED, team: { ...JOINED.team!, how: 'founded' } };
    act(() => fake.emit('approvals', {}));
    await waitFor(() => expect(within(card).getByTestId('team-status').textContent).toContain('(founded here)'));
    expect(within(card).queryByTestId('team-waiting')).toBeNull();
  });

  it('leaves a team only after saying its queue will no longer be seen here, through the confirmation window', async () => {
    const title = "Leave the team on db.example.com:5432/team: this desk's approvals go back to its own journal";
    const fake = fakeDesk({ ...baseAnswers(), teamStatus: JOINED, teamLeave: { ticket: 't-2', title } });
    renderWithDesk(fake, <SettingsPage />, { at: '/settings' });
    const card = await screen.findByTestId('team');
    await userEvent.click(await within(card).findByRole('button', { name: 'Leave the team…' }));
    expect(within(card).getByTestId('team-leave').textContent).toMatch(/^The team's queue will no longer be seen here/);
    await userEvent.click(within(card).getByRole('button', { name: 'Stay in the team' }));
    expect(within(card).queryByTestId('team-leave')).toBeNull();
    expect(fake.count('teamLeave')).toBe(0);
    await userEvent.click(within(card).getByRole('button', { name: 'Leave the team…' }));
    await userEvent.click(within(card).getByRole('button', { name: 'Leave' }));
    expect((await within(card).findByTestId('team-waiting')).textContent).toBe(`Waiting in the confirmation window: ${title}.`);
    fake.answers.teamStatus = { domain: 'sandbox', team: null };
    act(() => fake.emit('approvals', {}));
    await waitFor(() => expect(within(card).getByTestId('team-status').textContent).toContain('no team store'));
    expect(within(card).getByLabelText('URL')).toBeTruthy();
  });

  it('says when the team store is offline or refused as tampering, with the reason', async () => {
    const fake = fakeDesk({
      ...baseAnswers(),
      teamStatus: {
        ...JOINED,
        team: {
          ...JOINED.team!,
          state: 'offline',
          reason: 'The team store is offline (connect ECONNREFUSED). Nothing governed is sent until it is back.',
        },
      },
    });
    renderWithDesk(fake, <SettingsPage />, { at: '/settings' });
    expect((await screen.findByTestId('team-state')).textContent).toBe(
      'The team store is offline (connect ECONNREFUSED). Nothing governed is sent until it is back.',
    );
  });

  it('says a passphrase is needed before the profile form, when there is no keychain', async () => {
    const fake = fakeDesk({ ...baseAnswers(), vaultStatus: NO_KEYCHAIN });
    renderWithDesk(fake, <SettingsPage />, { at: '/settings' });
    expect((await screen.findByTestId('passphrase-needed')).textContent).toContain('a live key can only be stored under a passphrase');
    expect(screen.getByRole('button', { name: 'Add a profile' })).toHaveProperty('disabled', true);
    await userEvent.click(screen.getByRole('button', { name: 'Set a passphrase' }));
    expect(document.activeElement).toBe(screen.getByLabelText('New passphrase'));
  });

  it('after "Passphrase saved." the keys-at-rest note no longer asks for one, and a profile can be added', async () => {
    const fake = fakeDesk({ ...baseAnswers(), vaultStatus: NO_KEYCHAIN, vaultSetPassphrase: PASSPHRASE });
    renderWithDesk(fake, <SettingsPage />, { at: '/settings' });
    await userEvent.type(await screen.findByLabelText('New passphrase'), 'correct horse battery');
    await userEvent.type(screen.getByLabelText('Repeat new passphrase'), 'correct horse battery');
    await userEvent.click(screen.getByRole('button', { name: 'Set passphrase' }));
    await screen.findByText('Passphrase saved.');
    const vault = screen.getByTestId('vault');
    expect(vault.textContent).toContain('derived from your passphrase');
    expect(vault.textContent).not.toContain('Set a passphrase');
    expect(screen.queryByTestId('passphrase-needed')).toBeNull();
    expect(screen.getByRole('button', { name: 'Add a profile' })).toHaveProperty('disabled', false);
  });

  it('says how to add a live key while only the Sandbox is set up, and not once a live profile exists', async () => {
    const fake = fakeDesk(baseAnswers());
    renderWithDesk(fake, <SettingsPage />, { at: '/settings' });
    const howto = await screen.findByTestId('live-key-howto');
    expect(howto.textContent).toContain('play money');
    expect(howto.textContent).toMatch(/Add a profile with the environment Live, the key and its secret/);
    const live = { ...SANDBOX_PROFILE, id: 'live-1', name: 'Treasury', environment: 'live' as const };
    fake.answers.profilesList = { active_id: 'sandbox', profiles: [SANDBOX_PROFILE, live] };
    act(() => fake.emit('profiles', { active_id: 'sandbox' }));
    await waitFor(() => expect(screen.queryByTestId('live-key-howto')).toBeNull());
  });

  it('flags an empty API key and a bad address at their inputs, before asking the core', async () => {
    const fake = fakeDesk(baseAnswers());
    renderWithDesk(fake, <SettingsPage />, { at: '/settings' });
    await userEvent.click(await screen.findByRole('button', { name: 'Add a profile' }));
    const form = screen.getByRole('form', { name: 'New profile' });
    await userEvent.type(within(form).getByLabelText('Name'), 'Rehearsal');
    await userEvent.clear(within(form).getByLabelText('Base address'));
    await userEvent.type(within(form).getByLabelText('Base address'), 'ftp://example.com');
    await userEvent.click(within(form).getByRole('button', { name: 'Check and save' }));
    const key = within(form).getByLabelText('API key');
    await waitFor(() => expect(key.getAttribute('aria-invalid')).toBe('true'));
    expect(document.getElementById(key.getAttribute('aria-describedby')!)!.textContent).toBe('An API key is required.');
    const address = within(form).getByLabelText('Base address');
    expect(address.getAttribute('aria-invalid')).toBe('true');
    expect(document.getElementById(address.getAttribute('aria-describedby')!)!.textContent).toMatch(/api\/v4/);
    expect(within(form).getByLabelText('Name').getAttribute('aria-invalid')).toBeNull();
    expect(fake.count('profileSave')).toBe(0);
  });

  it("shows the core's refusal as a sentence, without the channel or field names, and clears it on the next attempt", async () => {
    const fake = fakeDesk({
      ...baseAnswers(),
      profileSave: {
        ok: false,
        error: { kind: 'exchange', label: 'INVALID_SIGNATURE', message: 'Check that the secret in Settings matches the key.' },
      } as never,
    });
    renderWithDesk(fake, <SettingsPage />, { at: '/settings' });
    await userEvent.click(await screen.findByRole('button', { name: 'Add a profile' }));
    const form = screen.getByRole('form', { name: 'New profile' });
    await userEvent.type(within(form).getByLabelText('Name'), 'Rehearsal');
    await userEvent.type(within(form).getByLabelText('API key'), 'abcdefgh12345678');
    await userEvent.type(within(form).getByLabelText('API secret'), '0'.repeat(32));
    await userEvent.click(within(form).getByRole('button', { name: 'Check and save' }));
    expect((await within(form).findByRole('alert')).textContent).toContain('INVALID_SIGNATURE');
    // The next attempt fails in the form itself: the exchange's old answer goes.
    await userEvent.clear(within(form).getByLabelText('API key'));
    await userEvent.click(within(form).getByRole('button', { name: 'Check and save' }));
    await waitFor(() => expect(within(form).queryByRole('alert')).toBeNull());
    expect(within(form).getByLabelText('API key').getAttribute('aria-invalid')).toBe('true');
  });

  it("puts the core's refusal of the new passphrase on its field, as the sentence alone", async () => {
    const fake = fakeDesk({
      ...baseAnswers(),
      vaultSetPassphrase: {
        ok: false,
        error: {
          kind: 'invalid_request',
          message: 'this passphrase is on the list of common passphrases',
          path: ['next'],
          channel: 'vaultSetPassphrase',
        },
      } as never,
    });
    renderWithDesk(fake, <SettingsPage />, { at: '/settings' });
    await userEvent.type(await screen.findByLabelText('New passphrase'), 'long enough passphrase');
    await userEvent.type(screen.getByLabelText('Repeat new passphrase'), 'long enough passphrase');
    await userEvent.click(screen.getByRole('button', { name: 'Set passphrase' }));
    const next = screen.getByLabelText('New passphrase');
    await waitFor(() => expect(next.getAttribute('aria-invalid')).toBe('true'));
    expect(described(next)).toBe('This passphrase is on the list of common passphrases.');
    expect(fake.count('vaultSetPassphrase')).toBe(1);
    expect(screen.queryByRole('alert')).toBeNull();
  });

  it("checks the new passphrase by the contract's schema and that both agree, before asking the core", async () => {
    const fake = fakeDesk({ ...baseAnswers(), vaultStatus: NO_KEYCHAIN, vaultSetPassphrase: PASSPHRASE });
    renderWithDesk(fake, <SettingsPage />, { at: '/settings' });
    await userEvent.type(await screen.findByLabelText('New passphrase'), 'short');
    await userEvent.type(screen.getByLabelText('Repeat new passphrase'), 'shorter');
    await userEvent.click(screen.getByRole('button', { name: 'Set passphrase' }));
    await waitFor(() => expect(described(screen.getByLabelText('New passphrase'))).toBe('A passphrase has at least 10 characters.'));
    expect(described(screen.getByLabelText('Repeat new passphrase'))).toBe('The two new passphrases differ.');
    expect(fake.count('vaultSetPassphrase')).toBe(0);
  });

  it("puts the core's refusal of a profile's field on that field", async () => {
    const fake = fakeDesk({
      ...baseAnswers(),
      profileSave: refusal('profileSave', ['secret'], 'this secret belongs to another key') as never,
    });
    renderWithDesk(fake, <SettingsPage />, { at: '/settings' });
    await userEvent.click(await screen.findByRole('button', { name: 'Add a profile' }));
    const form = screen.getByRole('form', { name: 'New profile' });
    await userEvent.type(within(form).getByLabelText('Name'), 'Rehearsal');
    await userEvent.type(within(form).getByLabelText('API key'), 'abcdefgh12345678');
    await userEvent.type(within(form).getByLabelText('API secret'), '0'.repeat(32));
    await userEvent.click(within(form).getByRole('button', { name: 'Check and save' }));
    const secret = within(form).getByLabelText('API secret');
    await waitFor(() => expect(secret.getAttribute('aria-invalid')).toBe('true'));
    expect(described(secret)).toBe('This secret belongs to another key.');
    expect(within(form).queryByRole('alert')).toBeNull();
  });

  it('closes the profile form with Escape and gives focus back to "Add a profile"', async () => {
    const fake = fakeDesk(baseAnswers());
    renderWithDesk(fake, <SettingsPage />, { at: '/settings' });
    const add = await screen.findByRole('button', { name: 'Add a profile' });
    await userEvent.click(add);
    expect(document.activeElement).toBe(within(screen.getByRole('form', { name: 'New profile' })).getByLabelText('Name'));
    await userEvent.keyboard('{Escape}');
    await waitFor(() => expect(screen.queryByRole('form', { name: 'New profile' })).toBeNull());
    expect(document.activeElement).toBe(add);
  });
});

describe('Settings page: preferences and focus', () => {
  it("checks the preferences by the contract's Settings before saving, and puts the core's refusal on its field", async () => {
    const fake = fakeDesk({
      ...baseAnswers(),
      settingsSave: refusal('settingsSave', ['settle_seconds'], 'the desk cannot wait that long between lookups') as never,
    });
    renderWithDesk(fake, <SettingsPage />, { at: '/settings' });
    const idle = await screen.findByLabelText('Lock after this many idle minutes');
    const settle = screen.getByLabelText('Seconds a write stays in doubt after its deadline (at least 60 on a live exchange)');
    await userEvent.clear(idle);
    await userEvent.type(idle, 'ten');
    await userEvent.clear(settle);
    await userEvent.type(settle, '2');
    await userEvent.click(screen.getByRole('button', { name: 'Save preferences' }));
    await waitFor(() => expect(described(idle)).toBe('A whole number of at most 6 digits.'));
    expect(described(settle)).toBe('At least 5.');
    expect(fake.count('settingsSave')).toBe(0);

    await userEvent.clear(idle);
    await userEvent.type(idle, '10');
    await userEvent.clear(settle);
    await userEvent.type(settle, '60');
    await userEvent.click(screen.getByRole('button', { name: 'Save preferences' }));
    await waitFor(() => expect(described(settle)).toBe('The desk cannot wait that long between lookups.'));
    expect(fake.calls.settingsSave).toEqual([{ idle_lock_minutes: 10, settle_seconds: 60 }]);
    expect(idle.getAttribute('aria-invalid')).toBeNull();
  });

  it('applies the chosen theme to the window and keeps the choice', async () => {
    renderWithDesk(fakeDesk(baseAnswers()), <SettingsPage />, { at: '/settings' });
    await userEvent.selectOptions(await screen.findByLabelText('Theme'), 'dark');
    await waitFor(() => expect(document.documentElement.dataset.theme).toBe('dark'));
    expect(localStorage.getItem('desk-theme')).toBe('dark');
    await userEvent.selectOptions(screen.getByLabelText('Theme'), 'light');
    await waitFor(() => expect(document.documentElement.dataset.theme).toBe('light'));
    await userEvent.selectOptions(screen.getByLabelText('Theme'), 'system');
    expect(localStorage.getItem('desk-theme')).toBeNull();
  });

  it('keeps focus on a profile\'s row when "Use" goes away, and on the heading when a removed profile\'s row goes', async () => {
    const rehearsal = { ...SANDBOX_PROFILE, id: 'p2', name: 'Rehearsal', environment: 'testnet' as const, built_in: false };
    const fake = fakeDesk({
      ...baseAnswers(),
      profilesList: { active_id: 'sandbox', profiles: [SANDBOX_PROFILE, rehearsal] },
      profileSelect: rehearsal,
      profileRemove: { removed: true },
    });
    renderWithDesk(fake, <SettingsPage />, { at: '/settings' });
    const row = (await screen.findByText('Rehearsal')).closest('tr')!;
    await userEvent.click(within(row).getByRole('button', { name: 'Use' }));
    fake.answers.profilesList = { active_id: 'p2', profiles: [SANDBOX_PROFILE, rehearsal] };
    act(() => fake.emit('profiles', { active_id: 'p2' }));
    await waitFor(() => expect(within(row).queryByRole('button', { name: 'Use' })).toBeNull());
    expect(document.activeElement).toBe(row);

    await userEvent.click(within(row).getByRole('button', { name: 'Remove Rehearsal' }));
    await userEvent.click(screen.getByRole('button', { name: 'Remove profile' }));
    fake.answers.profilesList = { active_id: 'sandbox', profiles: [SANDBOX_PROFILE] };
    act(() => fake.emit('profiles', { active_id: 'sandbox' }));
    await waitFor(() => expect(screen.queryByText('Rehearsal')).toBeNull());
    expect(document.activeElement).toBe(screen.getByRole('button', { name: 'Add a profile' }));
  });
});
