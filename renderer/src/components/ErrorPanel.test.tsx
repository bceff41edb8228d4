import { render, screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { labelWords, LABEL_SENTENCES } from '../../../shared/api/labels.ts';
import { DeskError } from '../desk/desk.ts';
import { ErrorPanel } from './ErrorPanel.tsx';

// What an operator reads of an error: words they can act on, and the raw text only under "Details".

/** The panel's text as shown without opening "Details". */
function shown(panel: HTMLElement): string {
  const copy = panel.cloneNode(true) as HTMLElement;
  copy.querySelectorAll('details').forEach((d) => d.remove());
  return copy.textContent ?? '';
}

function details(panel: HTMLElement): string {
  return panel.querySelector('details')?.textContent ?? '';
}

describe('ErrorPanel', () => {
  it("shows an exchange refusal in the label's words, with the label and the exchange's message only under Details", () => {
    for (const label of ['IP_FORBIDDEN', 'INVALID_PARAM_VALUE', 'READ_ONLY', 'BALANCE_NOT_ENOUGH']) {
      const { unmount } = render(
        <ErrorPanel
          error={
            new DeskError({
              kind: 'exchange',
              label,
              message: labelWords(label),
              detail: `raw ${label} message`,
              channel: 'balancesRefresh',
            })
          }
        />,
      );
      const panel = screen.getByRole('alert');
      expect(shown(panel)).toContain(LABEL_SENTENCES[label]);
      expect(shown(panel)).not.toContain(label);
      expect(shown(panel)).not.toContain('balancesRefresh');
      expect(details(panel)).toContain(label);
      expect(details(panel)).toContain(`raw ${label} message`);
      expect(panel.querySelector('summary')?.textContent).toBe('Details');
      unmount();
    }
  });

  it('names the field a refusal points to, and asks to check a field only when there is one', () => {
    const { unmount } = render(
      <ErrorPanel error={new DeskError({ kind: 'exchange', label: 'INVALID_PARAM_VALUE', message: labelWords('INVALID_PARAM_VALUE') })} />,
    );
    expect(shown(screen.getByRole('alert'))).not.toMatch(/highlighted field|Check the field/);
    unmount();
    render(
      <ErrorPanel error={new DeskError({ kind: 'invalid_request', message: 'Too many decimals.', path: ['write', 'input', 'amount'] })} />,
    );
    expect(screen.getByTestId('error-field').textContent).toBe('Check the field “amount”.');
  });

  it('keeps a connection failure in words, with the request and the system code under Details', () => {
    const raw = 'GET /wallet/total_balance at https://api.example.test: the connection failed (ENOTFOUND)';
    render(
      <ErrorPanel
        error={
          new DeskError({
            kind: 'network',
            message: "The exchange could not be reached at api.example.test: no such host was found. Check the profile's base address.",
            detail: raw,
          })
        }
      />,
    );
    const panel = screen.getByRole('alert');
    expect(shown(panel)).toMatch(/^No connectionThe exchange could not be reached at api\.example\.test/);
    expect(shown(panel)).not.toMatch(/ENOTFOUND|\/wallet\/|GET /);
    expect(details(panel)).toContain(raw);
  });

  it('has no Details when there is nothing raw to show', () => {
    render(<ErrorPanel error={new DeskError({ kind: 'locked', message: 'The vault is locked.' })} />);
    expect(screen.getByRole('alert').querySelector('details')).toBeNull();
  });
});
