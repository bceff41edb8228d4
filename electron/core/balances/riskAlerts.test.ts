import { describe, expect, it } from 'vitest';
import { alertSentence, thresholdFromPercent } from '../../../shared/risk.ts';
import { conditionsOf } from './alerts.ts';
import { kindsOf, type SubAccountEntry } from './matrix.ts';

// §2.8 `risk` is total / (borrowed + interest), compared as a ratio with a threshold stored as a ratio;
// the operator types and reads both as percentages. The walk's figure: risk 49.1674 (4,916.74%).

function crossEntry(uid: string, risk: string): SubAccountEntry {
  const cross = { user_id: Number(uid), risk, balances: {} };
  return { uid, name: '', spot: null, margin: [], futures: {}, cross, kinds: kindsOf(null, [], {}, cross) };
}

const rules = (percent: string) => {
  const t = thresholdFromPercent(percent);
  if (!('ratio' in t)) throw new Error(t.problem);
  return { defaultThreshold: t.ratio, thresholds: new Map<string, string>(), floors: [] };
};

describe('the cross margin risk alert', () => {
  it('compares the ratio with a threshold typed in percent, in one unit', () => {
    // 4,916.74% is far above a 150% threshold: no alert.
    expect(conditionsOf([crossEntry('1', '49.1674')], rules('150'))).toEqual([]);
    // 120% is below 150%.
    expect(conditionsOf([crossEntry('1', '1.2')], rules('150'))).toEqual([
      { uid: '1', kind: 'cross_risk', subject: '', value: '1.2', threshold: '1.5' },
    ]);
    // At the threshold exactly: not below it.
    expect(conditionsOf([crossEntry('1', '1.5')], rules('150%'))).toEqual([]);
    // A threshold of 10,000% is above 4,916.74%: the alert says so in percent, both sides.
    const [c] = conditionsOf([crossEntry('1', '49.1674')], rules('10000'));
    expect(c).toMatchObject({ value: '49.1674', threshold: '100' });
    expect(alertSentence(c!)).toBe('cross margin risk 4,916.74% is below 10,000% (110% is liquidation)');
  });
});
