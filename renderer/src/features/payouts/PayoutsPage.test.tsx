import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import type { Verdict } from '../../../../shared/api/policy.ts';
import type { PayoutBatchItem, PayoutProgress, PayoutReview, PayoutRowView } from '../../../../shared/payouts.ts';
import { fakeDesk } from '../../testkit/fakeDesk.ts';
import { baseAnswers } from '../../testkit/fixtures.ts';
import { refusal } from '../../testkit/refusal.ts';
import { renderWithDesk } from '../../testkit/renderPage.tsx';
import PayoutsPage from './PayoutsPage.tsx';

const REQUIRE: Verdict = {
  decision: 'require',
  rule: 'confirm-every-write',
  approvals: 1,
  drafter_may_approve: true,
  rules: [{ rule: 'confirm-every-write', matched: true, why: ['matches every write'] }],
};
const BLOCK: Verdict = {
  decision: 'block',
  rule: 'velocity',
  approvals: 0,
  drafter_may_approve: false,
  rules: [{ rule: 'velocity', matched: true, why: ['24-hour outflow with this write is 1,200 USDT, at least 1,000'] }],
};

const row = (o: Partial<PayoutRowView>): PayoutRowView => ({
  row: 1,
  line: 2,
  currency: 'USDT',
  chain: 'TRX',
  address: 'TQn9Y2khEsLJW1ChVWFMSMeRDow5KcbLSE',
  memo: '',
  amount: '25',
  reference: '',
  fee: '1',
  arrives: '24',
  problems: [],
  duplicate_of: null,
  verdict: REQUIRE,
  destination_note: 'a verified saved address at the exchange',
  ...o,
});

const REVIEW: PayoutReview = {
  file: 'payouts.csv',
  sha256: 'ab'.repeat(32),
  bytes: 120,
  file_problems: [],
  rows: [
    row({ row: 1, reference: 'INV-1' }),
    row({
      row: 2,
      line: 3,
      chain: 'TON',
      amount: '5',
      fee: null,
      arrives: null,
      verdict: null,
      destination_note: null,
      problems: [
        { field: 'memo', message: 'The TON chain needs a memo or tag with the address (is_tag); without it the money is lost.' },
        { field: 'amount', message: 'The minimum withdrawal is 10.' },
      ],
    }),
    row({
      row: 3,
      line: 4,
      reference: 'INV-1',
      fee: null,
      arrives: null,
      verdict: null,
      destination_note: null,
      duplicate_of: 1,
      problems: [
        {
          field: 'row',
          message: 'Same destination, amount and reference as row 1: a second payment? Remove one, or give each its own reference.',
        },
      ],
    }),
    row({ row: 4, line: 5, amount: '30', reference: 'INV-2' }),
  ],
  totals: [{ currency: 'USDT', amount: '55', fee: '2', count: 2 }],
  verdict: REQUIRE,
  batch_error: null,
};

const PROGRESS: PayoutProgress = {
  ref: 'b-1',
  title: '2 withdrawals from payouts.csv',
  file: 'payouts.csv',
  sha256: 'ab'.repeat(32),
  state: 'sent',
  approved_by: ['Alice'],
  needed: 1,
  rows: [
    {
      ref: 'r-1',
      row: 1,
      reference: 'INV-1',
      currency: 'USDT',
      chain: 'TRX',
      address: 'Taddr',
      memo: '',
      amount: '25',
      outcome: 'sent',
      state: 'accepted',
      status: 'REQUEST',
      exchange_id: 'w1',
      label: null,
      sentence: null,
    },
    {
      ref: 'r-2',
      row: 4,
      reference: 'INV-2',
      currency: 'USDT',
      chain: 'TRX',
      address: 'Taddr',
      memo: '',
      amount: '30',
      outcome: 'refused',
      state: 'refused',
      status: null,
      exchange_id: null,
      label: 'BALANCE_NOT_ENOUGH',
      sentence: 'The account does not hold enough available balance for this.',
    },
  ],
  counts: { pending: 0, sent: 1, refused: 1, skipped: 0 },
};

// Bytes a text reading would change: a BOM, a non-ASCII letter, CRLF line ends.
const BYTES = new Uint8Array([
  0xef,
  0xbb,
  0xbf,
  ...new TextEncoder().encode('currency,chain,address,amount,reference\r\nUSDT,TRX,Taddr,25,Café\r\n'),
]);
const b64 = (u: Uint8Array): string => btoa(String.fromCharCode(...u));

describe('Payouts page', () => {
  it("sends the file's exact bytes, shows each bad row's errors before anything is queued, and queues the valid rows as one batch", async () => {
    const fake = fakeDesk({
      ...baseAnswers(),
      payoutsImport: REVIEW,
      payoutsQueue: { ticket: 't1', title: '2 withdrawals from payouts.csv', ref: 'b-1', rows: 2 },
      payoutsProgress: PROGRESS,
    });
    const { router } = renderWithDesk(fake, <PayoutsPage />, { at: '/payouts' });
    await userEvent.upload(screen.getByLabelText('Payout file'), new File([BYTES], 'payouts.csv', { type: 'text/csv' }));
    await waitFor(() => expect(fake.calls.payoutsImport).toEqual([{ file: 'payouts.csv', content_base64: b64(BYTES) }]));

    expect((await screen.findByTestId('import-summary')).textContent).toMatch(/4 rows: 2 valid, 2 with problems/);
    const problems = within(screen.getByRole('table', { name: 'Problems' }))
      .getAllByRole('row')
      .slice(1)
      .map((r) => [...r.querySelectorAll('td')].map((c) => c.textContent));
    expect(problems).toEqual([
      ['2', '3', 'memo', 'The TON chain needs a memo or tag with the address (is_tag); without it the money is lost.'],
      ['2', '3', 'amount', 'The minimum withdrawal is 10.'],
      [
        '3',
        '4',
        'the row',
        'Same destination, amount and reference as row 1: a second payment? Remove one, or give each its own reference.',
      ],
    ]);
    expect(within(screen.getByRole('table', { name: 'Payouts' })).getByText('duplicate of row 1')).toBeTruthy();
    expect([...screen.getByRole('table', { name: 'Totals' }).querySelectorAll('tbody td')].map((c) => c.textContent)).toEqual([
      'USDT',
      '2',
      '55',
      '2',
    ]);
    expect(screen.getByTestId('verdict').textContent).toContain('Needs 1 approval (rule confirm-every-write, the drafter may approve)');
    expect(fake.count('payoutsQueue')).toBe(0);

    await userEvent.click(screen.getByRole('button', { name: 'Send 2 payouts for signing' }));
    await waitFor(() => expect(fake.calls.payoutsQueue).toEqual([{ file: 'payouts.csv', content_base64: b64(BYTES), rows: [1, 4] }]));
    await waitFor(() => expect(router.state.location.search).toBe('?batch=b-1'));
    const bar = (await screen.findByTestId('payout-progress')).querySelector('progress')!;
    expect([bar.value, bar.max]).toEqual([2, 2]);
    expect(screen.getByTestId('payout-progress').textContent).toContain('2 of 2 finished: 1 sent, 1 refused, 0 skipped.');
    const refused = screen.getByRole('table', { name: 'Report' }).querySelector('tr[data-outcome="refused"]')!;
    expect(refused.textContent).toContain('The account does not hold enough available balance for this.');
    expect(refused.querySelector('details')?.textContent).toBe('DetailsLabel: BALANCE_NOT_ENOUGH');
  });

  it('names a file the contract refuses on the file field and sends nothing', async () => {
    const fake = fakeDesk({ ...baseAnswers(), payoutsImport: REVIEW });
    renderWithDesk(fake, <PayoutsPage />, { at: '/payouts' });
    await userEvent.upload(screen.getByLabelText('Payout file'), new File([BYTES], `${'p'.repeat(201)}.csv`));
    const input = screen.getByLabelText('Payout file');
    await waitFor(() => expect(input.getAttribute('aria-invalid')).toBe('true'));
    expect(document.getElementById(input.getAttribute('aria-describedby')!.split(' ').at(-1)!)!.textContent).toBe(
      'The file name is longer than 200 characters.',
    );
    expect(fake.count('payoutsImport')).toBe(0);
  });

  it("puts the core's refusal of the file on the file field", async () => {
    const fake = fakeDesk({
      ...baseAnswers(),
      payoutsImport: refusal('payoutsImport', ['content_base64'], 'the file is not UTF-8 text') as never,
    });
    renderWithDesk(fake, <PayoutsPage />, { at: '/payouts' });
    await userEvent.upload(screen.getByLabelText('Payout file'), new File([BYTES], 'payouts.csv'));
    const input = screen.getByLabelText('Payout file');
    await waitFor(() => expect(input.getAttribute('aria-invalid')).toBe('true'));
    expect(document.getElementById(input.getAttribute('aria-describedby')!.split(' ').at(-1)!)!.textContent).toBe(
      'The file is not UTF-8 text.',
    );
    expect(fake.count('payoutsImport')).toBe(1);
    expect(screen.queryByRole('alert')).toBeNull();
  });

  it('offers no send button when the policy blocks the batch', async () => {
    const fake = fakeDesk({ ...baseAnswers(), payoutsImport: { ...REVIEW, verdict: BLOCK } });
    renderWithDesk(fake, <PayoutsPage />, { at: '/payouts' });
    await userEvent.upload(screen.getByLabelText('Payout file'), new File([BYTES], 'payouts.csv'));
    expect((await screen.findByTestId('verdict')).textContent).toContain('Blocked by rule velocity');
    expect(screen.getByText(/The policy blocks this batch/)).toBeTruthy();
    expect(screen.queryByRole('button', { name: /for signing/ })).toBeNull();
  });

  it('exports the report the core writes', async () => {
    const fake = fakeDesk({
      ...baseAnswers(),
      payoutsProgress: PROGRESS,
      payoutsReport: { filename: 'payouts-report.csv', csv: 'row\n1\n', rows: 2 },
    });
    const urls: Blob[] = [];
    URL.createObjectURL = (b: Blob) => {
      urls.push(b);
      return 'blob:x';
    };
    URL.revokeObjectURL = () => {};
    renderWithDesk(fake, <PayoutsPage />, { at: '/payouts?batch=b-1' });
    await userEvent.click(await screen.findByRole('button', { name: 'Export report CSV' }));
    expect(await screen.findByText('2 rows exported to payouts-report.csv.')).toBeTruthy();
    expect(fake.calls.payoutsReport).toEqual([{ ref: 'b-1' }]);
    const text = await new Promise<string>((resolve) => {
      const r = new FileReader();
      r.onload = () => resolve(r.result as string);
      r.readAsText(urls[0]!);
    });
    expect(text).toBe('row\n1\n');
  });
});

describe('Payouts page: the batches list', () => {
  const item = (o: Partial<PayoutBatchItem>): PayoutBatchItem => ({
    ref: 'b-1',
    title: '2 withdrawals from march.csv',
    file: 'march.csv',
    state: 'sent',
    counts: { pending: 0, sent: 1, refused: 1, skipped: 0 },
    created_at: Date.UTC(2026, 2, 1, 9, 30),
    rows: 2,
    totals: [{ currency: 'USDT', amount: '23', fee: '2' }],
    archivable: true,
    ...o,
  });

  it('lists every batch the core keeps, reopens a report, and archives an ended batch', async () => {
    const older = item({});
    const newer = item({
      ref: 'b-2',
      title: '1 withdrawal from april.csv',
      file: 'april.csv',
      state: 'waiting',
      counts: { pending: 1, sent: 0, refused: 0, skipped: 0 },
      rows: 1,
      totals: [{ currency: 'USDT', amount: '5' }],
      archivable: false,
    });
    const fake = fakeDesk({
      ...baseAnswers(),
      payoutsBatches: [newer, older],
      payoutsArchive: () => {
        fake.answers.payoutsBatches = [newer];
        return { archived: true };
      },
    });
    const first = renderWithDesk(fake, <PayoutsPage />, { at: '/payouts' });
    let rows = await screen.findAllByTestId('payout-batch');
    expect(rows.map((r) => r.textContent)).toEqual([
      expect.stringMatching(
        /^1 withdrawal from april\.csvapril\.csv · .*Waiting for approvals in the confirmation window1 rows: 0 sent, 0 refused, 0 skipped, 1 to go5 USDT/,
      ),
      expect.stringMatching(
        /^2 withdrawals from march\.csvmarch\.csv · .*Every row was handed to the exchange2 rows: 1 sent, 1 refused, 0 skipped23 USDT \(fee 2\)/,
      ),
    ]);
    // A batch under way cannot be archived yet.
    expect(within(rows[0]!).getByRole('button', { name: 'Archive' })).toHaveProperty('disabled', true);
    await userEvent.click(within(rows[1]!).getByRole('button', { name: 'Open report' }));
    await waitFor(() => expect(first.router.state.location.search).toBe('?batch=b-1'));
    expect(await screen.findByRole('region', { name: 'Batch progress' })).toBeTruthy();

    // Away and back (the window opened again): the list is the core's, so the batches are still there.
    first.unmount();
    renderWithDesk(fake, <PayoutsPage />, { at: '/payouts' });
    rows = await screen.findAllByTestId('payout-batch');
    expect(rows).toHaveLength(2);
    await userEvent.click(within(rows[1]!).getByRole('button', { name: 'Archive' }));
    await waitFor(() => expect(screen.getAllByTestId('payout-batch')).toHaveLength(1));
    expect(fake.calls.payoutsArchive).toEqual([{ ref: 'b-1' }]);
    expect(screen.getByTestId('payout-batch').textContent).toContain('april.csv');
  });
});
