import { screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { fakeDesk } from '../../testkit/fakeDesk.ts';
import { baseAnswers, withdrawalRow } from '../../testkit/fixtures.ts';
import { renderWithDesk } from '../../testkit/renderPage.tsx';
import { WithdrawalDetail } from './WithdrawalDetail.tsx';

// A withdrawal's detail offers Cancel only in the statuses the desk holds cancellable; anywhere else it
// says why there is none, so that a missing button never reads as a fault of the page.

const record = (status: string) => withdrawalRow({ status });

function show(status: string, cancellable: boolean) {
  const fake = fakeDesk({
    ...baseAnswers(),
    withdrawalDetail: { record: record(status), timeline: [{ status, seen_at: 1_795_600_000_000 }], intent: null, cancellable } as never,
  });
  renderWithDesk(fake, <WithdrawalDetail id="w900" onClose={() => {}} />);
}

describe('Withdrawal detail: Cancel, or why not', () => {
  it('says why a deposit-code (BCODE) withdrawal has no Cancel, and which statuses can be cancelled', async () => {
    show('BCODE', false);
    const why = await screen.findByTestId('no-cancel');
    expect(why.textContent).toBe(
      'No Cancel: it is a deposit-code operation, not a send waiting for review. A withdrawal can be cancelled only while it is ' +
        'Requested (REQUEST), Under review (REVIEW), Pending manual review (MANUAL), Face verification in progress (FVERIFY), ' +
        'before anything has left the exchange, whatever its chain.',
    );
    expect(screen.queryByRole('button', { name: 'Cancel withdrawal' })).toBeNull();
  });

  it('names the reason of a status that has moved on past cancelling', async () => {
    show('EXTPEND', false);
    expect((await screen.findByTestId('no-cancel')).textContent).toMatch(/^No Cancel: it has left the exchange and awaits confirmation/);
  });

  it('offers Cancel, and no reason, while the withdrawal can still be cancelled', async () => {
    show('REVIEW', true);
    expect(await screen.findByRole('button', { name: 'Cancel withdrawal' })).toBeTruthy();
    expect(screen.queryByTestId('no-cancel')).toBeNull();
  });

  it('says beside Cancel why cancelling needs no signature when every other write does', async () => {
    show('REVIEW', true);
    await screen.findByRole('button', { name: 'Cancel withdrawal' });
    expect(screen.getByTestId('cancel-unsigned').textContent).toBe(
      'Cancelling needs no signature: it only stops money leaving and cannot move money out, so it is never held for approvals.',
    );
  });
});
