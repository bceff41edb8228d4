import { render, screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { BatchWhat } from './BatchWhat.tsx';

describe('a batch ticket in the confirmation window', () => {
  it("shows every row's exact body under its id, the totals and the file it came from", () => {
    const rows = Array.from({ length: 12 }, (_, i) => ({
      ref: `w-${i}`,
      kind: 'withdrawal',
      body: { withdraw_order_id: `w-${i}`, currency: 'USDT', amount: `${i + 1}.5`, address: `T${i}addr`, chain: 'TRX' },
    }));
    const payload = {
      batch: 'payouts',
      title: 'Payouts from payouts.csv',
      source: { file: 'payouts.csv', sha256: 'c0ffee'.padEnd(64, '0') },
      rows,
      verdict: { decision: 'require', rule: 'big', approvals: 2, drafter_may_approve: false, rules: [] },
      totals: [{ currency: 'USDT', amount: '84', fee: '12' }],
    };
    render(
      <BatchWhat
        t={{ id: 't1', action: 'draft', ref: 'b1', what: 'batch', payload: JSON.stringify(payload), title: 'Draft Payouts', created_at: 0 }}
      />,
    );
    const shown = screen.getAllByTestId('batch-row');
    expect(shown).toHaveLength(12);
    expect(within(shown[11]!).getByText('12.5 USDT')).toBeTruthy();
    expect(shown[11]!.textContent).toContain('address=T11addr chain=TRX');
    expect(shown[11]!.textContent).toContain('w-11');
    expect(screen.getByTestId('batch-source-sha256').textContent).toBe(payload.source.sha256);
    expect(screen.getByTestId('batch-totals').textContent).toBe('84 USDT (fees 12)');
    expect(screen.getByText(/none by the drafter/)).toBeTruthy();
  });

  it('says what a small-balance conversion is sent as, and whose key signs it', () => {
    const payload = {
      batch: 'small_balance',
      title: 'Convert 1 small balance of 1 account to GT',
      source: { accounts: '1' },
      rows: [
        {
          ref: 'c-1',
          kind: 'small_balance_convert',
          body: { currency: 'DOGE', amount: '3' },
          signer: '101',
          note: 'small balance 101 DOGE',
        },
      ],
      verdict: { decision: 'require', rule: 'confirm-every-write', approvals: 1, drafter_may_approve: true, rules: [] },
      totals: [{ currency: 'DOGE', amount: '3' }],
    };
    render(
      <BatchWhat
        t={{ id: 't2', action: 'draft', ref: 'b2', what: 'batch', payload: JSON.stringify(payload), title: 'Draft', created_at: 0 }}
      />,
    );
    const row = screen.getByTestId('batch-row');
    expect(row.textContent).toContain('3 DOGE');
    expect(row.textContent).toContain(
      `sent as {"currency": ["DOGE"]}: converts the whole DOGE balance to GT (the amount is as reviewed) — signed by sub-account 101's own key`,
    );
  });
});
