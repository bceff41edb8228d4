import { describe, expect, it } from 'vitest';
import type { IntentView } from '../../../shared/ipc.ts';
import { intentOutcome } from './intentOutcome.ts';

const view = (state: IntentView['state'], extra: Partial<IntentView> = {}) => ({ state, ...extra }) as IntentView;

describe('a batch row read from its intent', () => {
  it('says what an operator settled by hand as done or not, and a refusal in words', () => {
    expect(intentOutcome(undefined)).toEqual({ state: 'pending', reason: '' });
    expect(intentOutcome(view('accepted')).state).toBe('done');
    expect(intentOutcome(view('settled', { reason: 'settled as done by alice: seen on the web console' })).state).toBe('done');
    expect(intentOutcome(view('settled', { reason: 'settled as not done by alice: never left' })).state).toBe('failed');
    expect(intentOutcome(view('refused', { label: 'BALANCE_NOT_ENOUGH', reason: 'raw' })).reason).not.toBe('raw');
    expect(intentOutcome(view('in_flight')).state).toBe('running');
  });
});
