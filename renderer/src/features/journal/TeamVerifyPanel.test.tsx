import { act, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import type { TeamVerifyAnswer } from '../../../../shared/ipc.ts';
import { fakeDesk } from '../../testkit/fakeDesk.ts';
import { baseAnswers } from '../../testkit/fixtures.ts';
import { renderWithDesk } from '../../testkit/renderPage.tsx';
import JournalPage from './JournalPage.tsx';

const FOUNDING = 'f'.repeat(64);
const LAST = 'a'.repeat(64);
const IN_A_TEAM = {
  domain: 'vault' as const,
  team: { host: '10.0.0.5', database: 'desk', how: 'joined' as const, founding: FOUNDING, state: 'online' as const, reason: null },
};

async function verifyTeam(answer: TeamVerifyAnswer) {
  const fake = fakeDesk({ ...baseAnswers(), journalEntries: { items: [], next: null }, teamStatus: IN_A_TEAM, teamVerify: answer });
  renderWithDesk(fake, <JournalPage />, { at: '/journal' });
  // Verify reads the whole store again: only when asked.
  expect(fake.count('teamVerify')).toBe(0);
  await userEvent.click(await screen.findByRole('button', { name: 'Verify team records' }));
  return { fake, result: await screen.findByTestId('team-verify-result') };
}

describe("Verify of the team's records on the Journal page", () => {
  it('says every row verified, with the last link and the pinned founding link', async () => {
    const { fake, result } = await verifyTeam({ team: true, verified: 7, rows: 7, last_link: LAST, founding: FOUNDING, refused: null });
    expect(fake.count('teamVerify')).toBe(1);
    expect(result.className).toBe('notice');
    expect(result.textContent).toContain('Every team record verifies: 7 of 7.');
    expect(result.textContent).toContain('Rows verified: 7 of 7');
    expect(within(result).getByTitle(LAST)).toBeTruthy();
    expect(within(result).getByTitle(FOUNDING)).toBeTruthy();
    expect(within(result).queryByTestId('team-refused')).toBeNull();
  });

  it('names the first refused row by its record number and says why', async () => {
    const { result } = await verifyTeam({
      team: true,
      verified: 7,
      rows: 8,
      last_link: LAST,
      founding: FOUNDING,
      refused: { seq: 8, reason: 'its desk was not vouched for by an operator in force' },
    });
    expect(result.className).toBe('error-panel');
    expect(result.textContent).toContain("The team's records do not verify: record 8 is refused.");
    expect(within(result).getByTestId('team-refused').textContent).toBe(
      'Refused: record 8, its desk was not vouched for by an operator in force. Nothing it would authorise is sent.',
    );
    expect(result.textContent).toContain('Rows verified: 7 of 8');
  });

  it("says so when the profile's approvals left the team since the page opened", async () => {
    const { result } = await verifyTeam({ team: false });
    expect(result.textContent).toMatch(/not on a team store/);
  });

  it('is not offered on a desk that is in no team', async () => {
    const fake = fakeDesk({ ...baseAnswers(), journalEntries: { items: [], next: null }, teamStatus: { domain: 'vault', team: null } });
    renderWithDesk(fake, <JournalPage />, { at: '/journal' });
    await screen.findByRole('button', { name: /^Verify/ });
    await vi.waitFor(() => expect(fake.count('teamStatus')).toBe(1));
    // The status answered and the page rendered with it before judging what is absent.
    await act(() => new Promise((resolve) => setTimeout(resolve, 20)));
    expect(screen.queryByRole('button', { name: 'Verify team records' })).toBeNull();
    expect(screen.queryByRole('heading', { name: 'Team records' })).toBeNull();
  });
});
