import { act, render } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';

const loads = vi.hoisted(() => [
  vi.fn(() => Promise.resolve({ default: () => null })),
  vi.fn(() => Promise.resolve({ default: () => null })),
]);
vi.mock('./routes.ts', () => ({ PAGES: loads.map((load, i) => ({ path: `p${i}`, title: `P${i}`, load })) }));

const { usePreloadPages } = await import('./usePreloadPages.ts');

function Probe() {
  usePreloadPages();
  return null;
}

afterEach(() => vi.useRealTimers());

describe("the other pages' code", () => {
  it('is fetched once the window is idle after the first paint, not before', async () => {
    vi.useFakeTimers();
    render(<Probe />);
    expect(loads.every((l) => l.mock.calls.length === 0)).toBe(true);
    await act(async () => {
      await vi.advanceTimersByTimeAsync(5000);
    });
    expect(loads.map((l) => l.mock.calls.length)).toEqual([1, 1]);
  });
});
