import { describe, expect, it } from 'vitest';
import { doubtWords, spanWords } from './doubtWords.ts';

const clock = (ms: number) => `t${ms}`;

describe('the words of a write in doubt', () => {
  it('say the outcome is not known, when the doubt ends and how long is left', () => {
    expect(doubtWords(90_000, 10_000, clock)).toBe(
      'Outcome not known yet: the first request may still reach the exchange. Nothing is sent again before t90000 (1 min 20 s left), and then only if the exchange still has no record of it.',
    );
    expect(doubtWords(10_000, 10_000, clock)).toMatch(/^Outcome not known yet: .* Its doubt ended at t10000/);
    expect(doubtWords(undefined, 0, clock)).toMatch(/^Outcome not known yet: .*never sends it again blindly/);
  });

  it('count whole seconds up', () => {
    expect(spanWords(400)).toBe('1 s');
    expect(spanWords(60_000)).toBe('1 min');
    expect(spanWords(-5)).toBe('0 s');
  });
});
