import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import type { TeamVerifyAnswer } from '../../../../shared/ipc.ts';
import { fakeDesk } from '../../testkit/fakeDesk.ts';
import { baseAnswers } from '../../testkit/fixtures.ts';
import { renderWithDesk } from '../../testkit/renderPage.tsx';
import JournalPage from './JournalPage.tsx';

const FOUNDING = 'f'.repeat(64);
const LAST = 'a'.repeat(64);

async function verifyTeam(answer: TeamVerifyAnswer) {
  const fake = fakeDesk({ ...baseAnswers(), journalEntries: { items: [], next: null }, teamVerify: answer });
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

  it("says so when the profile's approvals are not on a team", async () => {
    const { result } = await verifyTeam({ team: false });
    expect(result.textContent).toMatch(/not on a team store/);
  });
});
