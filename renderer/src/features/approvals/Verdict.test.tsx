import { render, screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { VerdictTable } from './Verdict.tsx';

// The verdict says in words which rule decided; the policy's own terms stay under "Details".

describe('VerdictTable', () => {
  it("says which rule decided, and keeps each rule's match in the policy's terms under Details", () => {
    const why = 'kind own_transfer is not one of spot_cancel, spot_cancel_all';
    render(
      <VerdictTable
        verdict={{
          decision: 'require',
          rule: 'confirm-every-write',
          approvals: 1,
          drafter_may_approve: true,
          rules: [
            { rule: 'cancels-free', matched: false, why: [why] },
            { rule: 'confirm-every-write', matched: true, why: ['matches every write'] },
          ],
        }}
      />,
    );
    const verdict = screen.getByTestId('verdict');
    const details = verdict.querySelector('details')!;
    expect(details.querySelector('summary')?.textContent).toBe('Details');
    expect(details.textContent).toContain(why);
    details.remove();
    expect(verdict.textContent).toBe('Needs 1 approval (rule confirm-every-write, the drafter may approve)');
  });
});
