import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { ACCOUNT_KINDS, type AlertView } from '../../../../shared/balances.ts';
import { fakeDesk } from '../../testkit/fakeDesk.ts';
import { baseAnswers } from '../../testkit/fixtures.ts';
import { renderWithDesk } from '../../testkit/renderPage.tsx';
import { SubAccountDetail } from './SubAccountDetail.tsx';

// §2.8 `risk` is a ratio (total / (borrowed + interest)); 110% is the liquidation line. The walk saw
// 49.1674 shown as 491,674.74% and an alert "491,708.08% is below 10,000%": the page must show the
// ratio as its percentage and the threshold in that same unit, and take thresholds typed as percentages.

const cell = { amounts: { USDT: '10' }, value: '10', unpriced: [] };
const alert: AlertView = {
  id: 1,
  uid: '7',
  kind: 'cross_risk',
  subject: '',
  value: '1.2',
  threshold: '1.5',
  raised_at: 1_700_000_000_000,
  cleared_at: null,
  acknowledged_at: null,
};

function answers(risk: string) {
  const base = baseAnswers();
  return {
    ...base,
    balancesSubAccount: {
      ...(base.balancesSubAccount as object),
      uid: '7',
      fetched_at: 1_700_000_000_000,
      source: 'exchange',
      row: {
        uid: '7',
        name: '',
        cells: Object.fromEntries(ACCOUNT_KINDS.map((k) => [k, cell])),
        total: '60',
        cross_risk: risk,
        margin_risk: null,
        alerts: 1,
      },
      risk_threshold: '1.5',
    },
    balanceAlerts: [alert],
    balancesSetThreshold: { ok: true },
  } as never;
}

describe('cross margin risk on the sub-account page', () => {
  it('shows the ratio as its percentage, and the alert compares it with the threshold in percent', async () => {
    renderWithDesk(fakeDesk(answers('49.1674')), <SubAccountDetail uid="7" />);
    expect((await screen.findByTestId('detail-cross-risk')).textContent).toBe('4,916.74%');
    expect((await screen.findByTestId('alert-7-cross_risk')).textContent).toContain(
      'cross margin risk 120% is below 150% (110% is liquidation)',
    );
    expect(screen.getByTestId('risk-threshold').textContent).toBe('Alert when the risk falls below 150% (110% is liquidation)');
  });

  it('takes the threshold as a percentage and stores its ratio; refuses one at or below liquidation', async () => {
    const fake = fakeDesk(answers('1.2'));
    renderWithDesk(fake, <SubAccountDetail uid="7" />);
    const input = await screen.findByLabelText('Risk threshold (%)');
    await userEvent.type(input, '1.5');
    await userEvent.click(screen.getByRole('button', { name: 'Set threshold' }));
    expect(input.getAttribute('aria-invalid')).toBe('true');
    expect(document.getElementById(input.getAttribute('aria-describedby')!)?.textContent).toBe(
      'A threshold of 1.5% is at or below 110%, where the account is already liquidated: type more than 110, such as 150.',
    );
    expect(fake.calls.balancesSetThreshold).toBeUndefined();

    await userEvent.clear(input);
    await userEvent.type(input, '175');
    await userEvent.click(screen.getByRole('button', { name: 'Set threshold' }));
    await waitFor(() => expect(fake.calls.balancesSetThreshold).toEqual([{ uid: '7', risk_threshold: '1.75' }]));
    expect(input.getAttribute('aria-invalid')).toBeNull();
  });
});
