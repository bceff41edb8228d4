import { describe, expect, it } from 'vitest';
import { tradeTimeMs } from './tradeTime.ts';

describe('the time of a trade', () => {
  it('reads create_time_ms as the live service sends it: milliseconds with 3 decimals', () => {
    expect(tradeTimeMs({ create_time: '1548000000', create_time_ms: '1548000000123.456' })).toBe(1_548_000_000_123);
  });

  it('falls back on create_time (seconds) when create_time_ms names another second', () => {
    // The Sandbox once answered seconds in the millisecond field.
    expect(tradeTimeMs({ create_time: '1795609183', create_time_ms: '1795609183.367' })).toBe(1_795_609_183_000);
    expect(tradeTimeMs({ create_time: '1548000000', create_time_ms: 'n/a' })).toBe(1_548_000_000_000);
  });
});
