import { render, screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import type { PolicyReplay } from '../../../shared/api/replay.ts';
import { ReplaySummary } from './ReplaySummary.tsx';

const REPLAY: PolicyReplay = {
  from: Date.parse('2026-10-27T00:00:00Z'),
  to: Date.parse('2026-11-26T00:00:00Z'),
  counted: { desk: 2, exchange: 5 },
  rules: [
    { rule: 'big-withdrawals', allowed: 0, held: 0, blocked: 3 },
    { rule: 'the-rest', allowed: 0, held: 4, blocked: 0 },
    { rule: null, allowed: 0, held: 0, blocked: 0 },
  ],
  changed: [
    {
      at: Date.parse('2026-11-20T10:00:00Z'),
      source: 'exchange',
      summary: '250 USDT to Tabc on TRX, not sent by this desk',
      before: { decision: 'require', rule: 'confirm-every-write', approvals: 1 },
      after: { decision: 'block', rule: 'big-withdrawals', approvals: 0 },
    },
  ],
  changed_total: 3,
};

describe('ReplaySummary', () => {
  it('says per rule what the policy would have done, and which verdicts change against the policy in force', () => {
    render(<ReplaySummary replay={REPLAY} />);
    const panel = screen.getByTestId('policy-replay');
    expect(panel.textContent).toContain('Replayed against 7 requests');
    expect(panel.textContent).toContain('2 drafted on this desk');
    const big = panel.querySelector('[data-rule="big-withdrawals"]') as HTMLElement;
    expect(
      within(big)
        .getAllByRole('cell')
        .map((c) => c.textContent),
    ).toEqual(['big-withdrawals', '0', '0', '3']);
    expect(screen.getByTestId('replay-changed').textContent).toBe(
      '3 requests would have been decided differently than under the policy in force (the newest 1 listed):',
    );
    expect(panel.querySelector('.replay-changed')!.textContent).toMatch(
      /250 USDT to Tabc on TRX, not sent by this desk: 1 approval \(confirm-every-write\) → blocked \(big-withdrawals\)/,
    );
  });
});
