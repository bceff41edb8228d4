import { describe, expect, it } from 'vitest';
import { DEPOSIT_STATUSES, describeWithdrawalStatus, WITHDRAWAL_STATUSES } from '../../../../shared/api/statuses.ts';
import { statusTone } from './statusTone.ts';

describe('status badges', () => {
  it('show every withdrawal that is not final as moving, and final ones as finished', () => {
    for (const s of Object.keys(WITHDRAWAL_STATUSES)) {
      const tone = statusTone(s, 'withdrawals');
      if (['DONE', 'CANCEL', 'REJECT'].includes(s)) expect(tone, s).toMatch(/ok|bad/);
      else if (s === 'FAIL') expect(tone).toBe('bad');
      else expect(tone, s).toBe('moving');
    }
  });

  it('show a deposit that is not final as moving', () => {
    expect(
      Object.keys(DEPOSIT_STATUSES)
        .filter((s) => statusTone(s, 'deposits') === 'moving')
        .sort(),
    ).toEqual(['DEP_CREDITED', 'MANUAL', 'PEND', 'REVIEW', 'TRACK']);
  });

  it('keep an unknown status as it came, watched, with words that say so', () => {
    expect(statusTone('SPLITPEND', 'withdrawals')).toBe('moving');
    expect(describeWithdrawalStatus('SPLITPEND')).toContain('watched until it changes');
  });
});
