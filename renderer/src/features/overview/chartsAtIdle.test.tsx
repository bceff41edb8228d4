import { act, screen } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { fakeDesk } from '../../testkit/fakeDesk.ts';
import { baseAnswers } from '../../testkit/fixtures.ts';
import { renderWithDesk } from '../../testkit/renderPage.tsx';
import OverviewPage from './OverviewPage.tsx';

// The Overview's charts never stand between the operator and the next click (docs/performance.md §Opening the desk): they are drawn
// after the figures, once the window is idle, and not at all when the page is left before that.

let idle: Array<() => void> = [];
beforeEach(() => {
  idle = [];
  vi.stubGlobal('requestIdleCallback', (fn: () => void) => idle.push(fn));
});
afterEach(() => vi.unstubAllGlobals());

/** The window goes idle: every idle callback waiting now runs (and those they queue, up to `rounds`). */
async function goIdle(rounds: number) {
  for (let i = 0; i < rounds; i++) {
    const now = idle.splice(0);
    await act(async () => {
      for (const fn of now) fn();
      await new Promise((r) => setTimeout(r, 20));
    });
  }
}

const settle = (ms: number) => act(() => new Promise((r) => setTimeout(r, ms)));

describe('Overview charts', () => {
  it('draws the figures first and the breakdown chart only once the window has been idle', async () => {
    renderWithDesk(fakeDesk(baseAnswers()), <OverviewPage />, { at: '/overview' });
    expect((await screen.findByTestId('total-amount')).textContent).toBe('1,234,567.5');
    await settle(500);
    // Figures and table are there; the chart's place is held, with nothing drawn in it yet.
    expect(screen.getByTestId('breakdown-table')).toBeTruthy();
    expect(screen.queryByTestId('breakdown-chart')).toBeNull();
    await goIdle(6);
    expect(await screen.findByTestId('breakdown-chart')).toBeTruthy();
  });

  it('draws nothing after the page is left before the window went idle', async () => {
    const view = renderWithDesk(fakeDesk(baseAnswers()), <OverviewPage />, { at: '/overview' });
    await screen.findByTestId('total-amount');
    await settle(500);
    const waiting = idle.length;
    view.unmount();
    await goIdle(6);
    expect(waiting).toBeGreaterThan(0);
    // Nothing was left to do: the first idle moment found the queue empty and asked for no other.
    expect(idle).toHaveLength(0);
  });
});
