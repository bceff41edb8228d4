import { screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { fakeDesk } from '../../testkit/fakeDesk.ts';
import { baseAnswers } from '../../testkit/fixtures.ts';
import { renderWithDesk } from '../../testkit/renderPage.tsx';
import ApprovalsPage from './ApprovalsPage.tsx';
import type { TeamStatus } from '../../../../shared/ipc.ts';

// The team store refused as tampering: the Approvals page says why and marks the requests the refused row
// touches (the team card's list).

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

describe('a team store refused as tampering', () => {
  it('marks the requests the refused row touches on the Approvals page', async () => {
    const fake = fakeDesk({
      ...baseAnswers(),
      teamStatus: TAMPERED,
      approvalsState: { ok: false, error: { kind: 'invalid_request', label: 'TEAM_STORE_TAMPERED', message: REASON } } as never,
    });
    renderWithDesk(fake, <ApprovalsPage />, { at: '/approvals' });
    const rows = await screen.findByTestId('tampered-rows');
    expect(within(rows).getByTestId('tampered-request').textContent).toBe('Tampered: 17.07 USDT to TXkz (TRX) (r-1)');
    expect(screen.getByText(REASON)).toBeTruthy();
  });
});
