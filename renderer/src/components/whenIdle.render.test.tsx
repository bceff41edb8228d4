import { render, screen, waitFor } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { useAfterIdle } from './whenIdle.ts';

// What the Overview draws at idle (its charts) gives way to the operator: a click on the sidebar while a
// chart is being drawn is handled between the chart's parts, not after the whole chart.

const events: string[] = [];

/** One part of a heavy chart: a few milliseconds of drawing each. */
function Part({ n }: { n: number }) {
  const until = performance.now() + 8;
  while (performance.now() < until) {
    // drawing
  }
  events.push(`part ${n}`);
  return <span>{n}</span>;
}

const load = () => Promise.resolve();

function Chart() {
  const ready = useAfterIdle(load);
  if (!ready) return <p>chart waits</p>;
  // The operator's click arrives as the chart starts drawing.
  if (!events.includes('click queued')) {
    events.push('click queued');
    setTimeout(() => events.push('click handled'), 0);
  }
  return (
    <div data-testid="chart">
      {Array.from({ length: 12 }, (_, n) => (
        <Part key={n} n={n} />
      ))}
    </div>
  );
}

describe('a chart drawn at idle', () => {
  it('lets a click that arrives while it is drawn be handled before the chart is done', async () => {
    render(<Chart />);
    await waitFor(() => expect(screen.getByTestId('chart')).toBeTruthy(), { timeout: 5_000 });
    await waitFor(() => expect(events).toContain('click handled'));
    const parts = events.filter((e) => e.startsWith('part'));
    expect(parts).toHaveLength(12);
    expect(events.indexOf('click handled')).toBeLessThan(events.indexOf('part 11'));
  });
});
