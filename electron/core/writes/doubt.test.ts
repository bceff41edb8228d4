import { describe, expect, it } from 'vitest';
import type { IntentView } from '../journal/intents.ts';
import { doubtEnd, inheritedDoubtEnd, provenAbsent } from './doubt.ts';

// The rule that no absent lookup counts while an attempt may still land (docs/failure-modes.md §In doubt).

const rules = { settleMs: 90_000, requestTimeoutMs: 15_000 };
const base: IntentView = {
  id: 'i',
  kind: 'withdrawal',
  client_id: 'c',
  body: {},
  state: 'unconfirmed',
  created_at: 0,
  updated_at: 0,
  attempts: 1,
  last_sent_at: 1_000,
  deadline: 16_000,
  absent_lookups: 0,
};

describe('the doubt of a write whose answer did not come', () => {
  it('lasts until the attempt deadline plus the settle window, or the recorded end', () => {
    expect(doubtEnd(base, rules)).toBe(106_000);
    expect(doubtEnd({ ...base, doubt_until: 200_000 }, rules)).toBe(200_000);
    // A journal from before deadlines were recorded: the client's timeout after the send.
    const { deadline: _d, ...old } = base;
    expect(doubtEnd(old, rules)).toBe(1_000 + 15_000 + 90_000);
  });

  it('is proven absent only by two lookups, the last one asked after the doubt ended', () => {
    expect(provenAbsent({ ...base, absent_lookups: 5, last_absent_at: 105_999 }, rules)).toBe(false);
    expect(provenAbsent({ ...base, absent_lookups: 1, last_absent_at: 106_000 }, rules)).toBe(false);
    expect(provenAbsent({ ...base, absent_lookups: 2, last_absent_at: 106_000 }, rules)).toBe(true);
  });

  it('of an inherited write starts now and covers an attempt made just before', () => {
    expect(inheritedDoubtEnd(50_000, rules)).toBe(50_000 + 15_000 + 90_000);
  });
});
