import { describe, expect, it } from 'vitest';
import { ORDER_STATUSES } from './orders.ts';
import {
  DEPOSIT_STATUSES,
  FINAL_WITHDRAWAL_STATUSES,
  TRANSFER_STATUSES,
  UID_TRANSFER_STATUSES,
  WITHDRAWAL_CREATE_ONLY_STATUSES,
  WITHDRAWAL_STATUSES,
} from './statuses.ts';
import { INTENT_STATUS_KIND, statusEntry, STATUS_TABLES, type StatusKind } from './statusWords.ts';
import { WRITE_KINDS } from './writes.ts';

// Every value §3.1–3.5 lists (and the live service's spot order states) must read as words with a tone.
const LISTED: Record<StatusKind, readonly string[]> = {
  withdrawal: [...Object.keys(WITHDRAWAL_STATUSES), ...Object.keys(WITHDRAWAL_CREATE_ONLY_STATUSES)],
  deposit: Object.keys(DEPOSIT_STATUSES),
  transfer: [...TRANSFER_STATUSES, 'success'],
  uid_transfer: UID_TRANSFER_STATUSES,
  spot_order: [...Object.keys(ORDER_STATUSES), 'finished'],
};

describe('status words', () => {
  it('give every status the spec lists words and a tone, never "Unknown status"', () => {
    for (const [kind, list] of Object.entries(LISTED) as Array<[StatusKind, readonly string[]]>) {
      expect(Object.keys(STATUS_TABLES[kind]).sort(), kind).toEqual([...list].sort());
      for (const s of list) {
        const e = statusEntry(kind, s);
        expect(e.known, `${kind} ${s}`).toBe(true);
        expect(e.words, `${kind} ${s}`).not.toMatch(/unknown status/i);
      }
    }
  });

  it('read what the walk saw: a transfer SUCCESS and spot orders open, closed, cancelled', () => {
    expect(statusEntry('transfer', 'SUCCESS')).toMatchObject({ words: 'Done: the amount moved', tone: 'ok' });
    expect(statusEntry('spot_order', 'open')).toMatchObject({ tone: 'moving' });
    expect(statusEntry('spot_order', 'closed')).toMatchObject({ words: 'Filled in full', tone: 'ok' });
    expect(statusEntry('spot_order', 'cancelled').tone).toBe('plain');
    expect(statusEntry('uid_transfer', 'RECEIVED').tone).toBe('ok');
    expect(statusEntry('uid_transfer', 'REFUSED').tone).toBe('bad');
    expect(statusEntry('transfer', 'FAIL').tone).toBe('bad');
  });

  it('show a withdrawal that is not final as moving, FAIL as bad, and final ones as finished', () => {
    for (const s of Object.keys(WITHDRAWAL_STATUSES)) {
      const { tone } = statusEntry('withdrawal', s);
      if (FINAL_WITHDRAWAL_STATUSES.has(s)) expect(tone, s).toMatch(/ok|bad/);
      else if (s === 'FAIL') expect(tone).toBe('bad');
      else expect(tone, s).toBe('moving');
    }
  });

  it('show a deposit that is not final as moving', () => {
    const moving = Object.keys(DEPOSIT_STATUSES).filter((s) => statusEntry('deposit', s).tone === 'moving');
    expect(moving.sort()).toEqual(['DEP_CREDITED', 'MANUAL', 'PEND', 'REVIEW', 'TRACK']);
  });

  it('keep an unlisted status as it came, watched, with words that say so', () => {
    expect(statusEntry('withdrawal', 'SPLITPEND')).toEqual({
      words: 'Unknown status "SPLITPEND" (watched until it changes)',
      tone: 'moving',
      known: false,
    });
    expect(statusEntry('spot_order', 'SUCCESS').known).toBe(false);
    // A key of Object.prototype is not a status.
    expect(statusEntry('transfer', 'constructor').known).toBe(false);
  });

  it('name a table for the status of every kind of write', () => {
    for (const k of WRITE_KINDS) expect(STATUS_TABLES[INTENT_STATUS_KIND[k]], k).toBeDefined();
  });
});
