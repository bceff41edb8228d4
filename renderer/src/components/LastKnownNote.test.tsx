import { render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { LastKnownNote } from './LastKnownNote.tsx';

// The note is drawn in the frame of the window's first figures (docs/performance.md §Opening the desk): the first Intl formatter a
// page builds loads the locale's data, tens of milliseconds in a CPU profile of that start. It says the
// time and the age without one.

afterEach(() => vi.restoreAllMocks());

describe('the last known note', () => {
  it('says when the figures were read and how long ago, without building an Intl formatter', () => {
    const now = Date.now();
    const at = now - 3 * 3_600_000 - 5 * 60_000;
    const made = vi.fn();
    vi.spyOn(Intl, 'RelativeTimeFormat').mockImplementation(made);
    vi.spyOn(Intl, 'DateTimeFormat').mockImplementation(made);
    vi.spyOn(Date.prototype, 'toLocaleString').mockImplementation(made);
    render(<LastKnownNote at={at} failed={false} testId="note" />);
    const d = new Date(at);
    const two = (n: number) => String(n).padStart(2, '0');
    const when = `${d.getFullYear()}-${two(d.getMonth() + 1)}-${two(d.getDate())} ${two(d.getHours())}:${two(d.getMinutes())}`;
    expect(screen.getByTestId('note').textContent).toBe(`Last known figures, read ${when} (3 hours ago) · asking the exchange…`);
    expect(made).not.toHaveBeenCalled();
  });

  it('says one unit without a plural, and less than a minute as such', () => {
    const now = Date.now();
    const { rerender } = render(<LastKnownNote at={now - 86_400_000 - 1} failed testId="note" />);
    expect(screen.getByTestId('note').textContent).toMatch(/\(1 day ago\) · the exchange did not answer; they may be out of date$/);
    rerender(<LastKnownNote at={now - 10_000} failed={false} testId="note" />);
    expect(screen.getByTestId('note').textContent).toMatch(/\(less than a minute ago\)/);
  });
});
