import { describe, expect, it } from 'vitest';
import { alertSentence, ratioAsPercent, thresholdFromPercent } from './risk.ts';

describe('risk ratios as percentages', () => {
  it('show a §2.8 ratio as its exact percentage', () => {
    expect(ratioAsPercent('49.1674')).toBe('4,916.74%');
    expect(ratioAsPercent('49.1708')).toBe('4,917.08%');
    expect(ratioAsPercent('1.1')).toBe('110%');
    expect(ratioAsPercent('1.23456789')).toBe('123.456789%');
    expect(ratioAsPercent('0.05')).toBe('5%');
    expect(ratioAsPercent('999')).toBe('99,900%');
    expect(ratioAsPercent(null)).toBe('—');
  });

  it('read a threshold typed in percent as the ratio the core compares', () => {
    expect(thresholdFromPercent('150')).toEqual({ ratio: '1.5' });
    expect(thresholdFromPercent(' 130.5 % ')).toEqual({ ratio: '1.305' });
    expect(thresholdFromPercent('110.000001')).toEqual({ ratio: '1.10000001' });
  });

  it('refuse a threshold that is not a percentage, or at or below liquidation, saying why', () => {
    expect(thresholdFromPercent('1.5')).toEqual({
      problem: 'A threshold of 1.5% is at or below 110%, where the account is already liquidated: type more than 110, such as 150.',
    });
    expect(thresholdFromPercent('110')).toHaveProperty('problem');
    for (const bad of ['', 'abc', '-150', '1e3', '150.1234567'])
      expect(thresholdFromPercent(bad), bad).toEqual({
        problem: 'Type the threshold as a percentage such as 150 (at most 6 decimal places).',
      });
  });

  it('word an alert the same for the page and the desktop notification', () => {
    expect(alertSentence({ kind: 'margin_risk', subject: 'BTC_USDT', value: '1.2', threshold: '1.3' })).toBe(
      'isolated margin BTC_USDT risk 120% is below 130%',
    );
    expect(alertSentence({ kind: 'low_balance', subject: 'USDT', value: '1200.5', threshold: '5000' })).toBe(
      'USDT holdings 1,200.5 are below the floor of 5,000',
    );
  });
});
