import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { fakeDesk } from '../../testkit/fakeDesk.ts';
import { baseAnswers } from '../../testkit/fixtures.ts';
import { refusal } from '../../testkit/refusal.ts';
import { renderWithDesk } from '../../testkit/renderPage.tsx';
import { SubAccountDetail } from './SubAccountDetail.tsx';

// A sub-account's alert settings: checked by the contract's ThresholdInput and FloorInput before anything
// is asked, and the core's refusal of a field said at that field.

const described = (input: HTMLElement) => document.getElementById(input.getAttribute('aria-describedby') ?? '')?.textContent ?? null;

describe("Sub-account's alert settings", () => {
  it("names a bad threshold or floor at its input by the contract's schema and asks nothing", async () => {
    const fake = fakeDesk(baseAnswers());
    renderWithDesk(fake, <SubAccountDetail uid="101" />);
    await userEvent.type(await screen.findByLabelText('Risk threshold (%)'), '1,5');
    await userEvent.click(screen.getByRole('button', { name: 'Set threshold' }));
    const threshold = screen.getByLabelText('Risk threshold (%)');
    await waitFor(() => expect(threshold.getAttribute('aria-invalid')).toBe('true'));
    expect(described(threshold)).toBe('Type the threshold as a percentage such as 150 (at most 6 decimal places).');

    await userEvent.clear(screen.getByLabelText('Floor currency'));
    await userEvent.type(screen.getByLabelText('Floor currency'), 'us-dt');
    await userEvent.type(screen.getByLabelText('Floor amount'), '1,000');
    await userEvent.click(screen.getByRole('button', { name: 'Set floor' }));
    await waitFor(() =>
      expect(described(screen.getByLabelText('Floor amount'))).toBe('A plain decimal such as 1.5 (at most 8 decimal places).'),
    );
    expect(described(screen.getByLabelText('Floor currency'))).toBe('A currency is capital letters and digits, such as USDT.');
    expect(fake.count('balancesSetThreshold') + fake.count('balancesSetFloor')).toBe(0);
  });

  it("sends what was typed as the contract's request and puts the core's refusal on its field", async () => {
    const fake = fakeDesk({
      ...baseAnswers(),
      balancesSetFloor: refusal('balancesSetFloor', ['floor'], 'a floor above 1,000,000 cannot be watched') as never,
    });
    renderWithDesk(fake, <SubAccountDetail uid="101" />);
    await userEvent.clear(await screen.findByLabelText('Floor currency'));
    await userEvent.type(screen.getByLabelText('Floor currency'), 'btc');
    await userEvent.type(screen.getByLabelText('Floor amount'), '2000000');
    await userEvent.click(screen.getByRole('button', { name: 'Set floor' }));
    const floor = screen.getByLabelText('Floor amount');
    await waitFor(() => expect(floor.getAttribute('aria-invalid')).toBe('true'));
    expect(described(floor)).toBe('A floor above 1,000,000 cannot be watched.');
    expect(fake.calls.balancesSetFloor).toEqual([{ uid: '101', currency: 'BTC', floor: '2000000' }]);
    expect(screen.queryByRole('alert')).toBeNull();
  });
});

describe("Sub-account's spot balances", () => {
  it("flags a currency on the exchange's low-liquidity list, and only that one", async () => {
    const base = baseAnswers();
    const fake = fakeDesk({
      ...base,
      lowCapCurrencies: { currencies: ['PEPEX'], fetched_at: 0 },
      balancesSubAccount: {
        ...(base.balancesSubAccount as object),
        uid: '101',
        spot: { uid: '101', available: { PEPEX: '1000', USDT: '25' } },
      } as never,
    });
    renderWithDesk(fake, <SubAccountDetail uid="101" />);
    const spot = await screen.findByTestId('detail-spot');
    await waitFor(() => expect(spot.querySelectorAll('[data-testid="low-cap"]')).toHaveLength(1));
    const flagged = spot.querySelector('[data-testid="low-cap"]')!.closest('dt')!;
    expect(flagged.textContent).toBe('available.PEPEXlow cap');
  });
});
