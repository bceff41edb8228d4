import { screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { fakeDesk } from '../../testkit/fakeDesk.ts';
import { baseAnswers } from '../../testkit/fixtures.ts';
import { renderWithDesk } from '../../testkit/renderPage.tsx';
import { TeamSection } from './TeamSection.tsx';
import type { TeamStatus } from '../../../../shared/ipc.ts';

// The team card while the store is refused as tampering: the row, the requests it touches, a desk clock
// far from the store's, and the send leases (open, finished, taken over by whom).

const REASON = "Team store record 7 is refused as tampering: its desk's signature does not verify. Nothing it would authorise is sent.";
const TAMPERED: TeamStatus = {
  domain: 'sandbox',
  team: {
    host: '127.0.0.1:5432',
    database: 'team',
    how: 'started',
    founding: 'ab'.repeat(32),
    state: 'tampered',
    reason: REASON,
    tampered: {
      seq: 7,
      reason: "its desk's signature does not verify",
      requests: [{ ref: 'r-1', summary: '17.07 USDT to TXkz (TRX)' }],
    },
    clock: {
      offset_ms: 7_200_000,
      refusal:
        "This desk's clock is 2 h 0 min ahead of the team store's (the database's now()): it writes no team record until its clock is set right",
    },
    leases: [
      { ref: 'r-0', request: 'r-0', state: 'finished', owner: 'desk-aaaaaaaaaaaa', mine: false, taken_over: 1 },
      { ref: 'r-2', request: 'r-2', state: 'open', owner: 'desk-bbbbbbbbbbbb', mine: true, taken_over: 0 },
    ],
  },
};

describe('the team card', () => {
  it('names them on the team card, with the clock and the send leases', async () => {
    const fake = fakeDesk({ ...baseAnswers(), teamStatus: TAMPERED });
    renderWithDesk(fake, <TeamSection />, { at: '/settings' });
    expect((await screen.findByTestId('team-state')).textContent).toBe(REASON);
    expect(screen.getByTestId('team-tampered').textContent).toBe('Touched by row 7: 17.07 USDT to TXkz (TRX).');
    expect(screen.getByTestId('team-clock').textContent).toMatch(/^This desk's clock is 2 h 0 min ahead of the team store's/);
    expect(screen.getByTestId('team-leases').textContent).toContain(
      'r-0: finished: settled, sent no more, taken over by desk-aaaaaaaaaaaa',
    );
    expect(screen.getByTestId('team-leases').textContent).toContain('r-2: open, held by desk-bbbbbbbbbbbb (this desk)');
  });
});
