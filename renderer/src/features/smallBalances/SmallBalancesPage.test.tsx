import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import type { Verdict } from '../../../../shared/api/policy.ts';
import type { DustOverview, DustProgress, DustReview } from '../../../../shared/smallBalance.ts';
import { fakeDesk } from '../../testkit/fakeDesk.ts';
import { baseAnswers } from '../../testkit/fixtures.ts';
import { renderWithDesk } from '../../testkit/renderPage.tsx';
import SmallBalancesPage from './SmallBalancesPage.tsx';

const REQUIRE: Verdict = {
  decision: 'require',
  rule: 'confirm-every-write',
  approvals: 1,
  drafter_may_approve: true,
  rules: [{ rule: 'confirm-every-write', matched: true, why: ['matches every write'] }],
};

const item = (currency: string, available: string, btc: string, gt: string, low_cap = false) => ({
  currency,
  available_balance: available,
  estimated_as_btc: btc,
  convertible_to_gt: gt,
  low_cap,
});

const LIST: DustOverview = {
  accounts: [
    { account: 'main', items: [], total_btc: '0', total_gt: '0', error: null },
    {
      account: '101',
      items: [item('DOGE', '3', '0.00000665', '0.05077197'), item('PEPEX', '1000', '0.00000003', '0.00024940', true)],
      total_btc: '0.00000668',
      total_gt: '0.05102137',
      error: null,
    },
    {
      account: '102',
      items: [item('DOGE', '2', '0.00000443', '0.03384798')],
      total_btc: '0.00000443',
      total_gt: '0.03384798',
      error: null,
    },
    { account: '103', items: [], total_btc: '0', total_gt: '0', error: 'The exchange refused this key (INVALID_KEY).' },
  ],
  total_btc: '0.00001111',
  total_gt: '0.08486935',
};

const REVIEW: DustReview = {
  rows: [
    { account: '101', currency: 'DOGE', amount: '3', convertible_to_gt: '0.05077197', verdict: REQUIRE },
    { account: '102', currency: 'DOGE', amount: '2', convertible_to_gt: '0.03384798', verdict: REQUIRE },
  ],
  verdict: REQUIRE,
};

const PROGRESS: DustProgress = {
  ref: 'b-9',
  title: 'Convert 2 small balances of 2 accounts to GT',
  state: 'sent',
  approved_by: ['Alice'],
  needed: 1,
  rows: [
    { ref: 'r1', account: '101', currency: 'DOGE', amount: '3', outcome: 'converted', state: 'done', exchange_id: '7', sentence: null },
    {
      ref: 'r2',
      account: '102',
      currency: 'DOGE',
      amount: '2',
      outcome: 'pending',
      state: 'unconfirmed',
      exchange_id: null,
      sentence: null,
    },
  ],
};

const cells = (row: Element) => [...row.querySelectorAll('td')].map((c) => c.textContent);

describe('Small balances page', () => {
  it("lists every account's dust with totals and low-cap flags, reviews the selection under the policy, and follows each account", async () => {
    const fake = fakeDesk({
      ...baseAnswers(),
      dustList: LIST,
      lowCapCurrencies: { currencies: ['PEPEX', 'MOONC'], fetched_at: 0 },
      dustHistory: { rows: [], page: 1, limit: 100, more: false },
      dustReview: REVIEW,
      dustConvert: { ticket: 't1', title: PROGRESS.title, ref: 'b-9', rows: 2 },
      dustProgress: PROGRESS,
    });
    const { router } = renderWithDesk(fake, <SmallBalancesPage />, { at: '/small-balances' });
    const sub101 = await screen.findByRole('region', { name: 'Small balances of Sub-account 101' });
    expect(within(sub101).getAllByRole('row').slice(1).map(cells)).toEqual([
      ['', 'DOGE', '3', '0.00000665', '0.05077197'],
      ['', 'PEPEXlow cap', '1000', '0.00000003', '0.00024940'],
      ['', 'Total', '', '0.00000668', '0.05102137'],
    ]);
    expect(within(sub101).getByTestId('low-cap').getAttribute('title')).toMatch(/low-cap list, which the API does not withdraw/);
    expect(screen.getByTestId('dust-total').textContent).toBe('All accounts: 0.00001111 BTC estimated, convertible to 0.08486935 GT.');
    expect(within(screen.getByRole('region', { name: 'Small balances of Main account' })).getByText('No small balances.')).toBeTruthy();
    expect(within(screen.getByRole('region', { name: 'Small balances of Sub-account 103' })).getByText(/INVALID_KEY/)).toBeTruthy();

    await userEvent.click(screen.getByRole('checkbox', { name: 'Convert DOGE of Sub-account 101' }));
    await userEvent.click(screen.getByRole('checkbox', { name: 'Convert DOGE of Sub-account 102' }));
    await userEvent.click(screen.getByRole('button', { name: 'Convert 2 balances to GT…' }));
    const rows = [
      { account: '101', currency: 'DOGE' },
      { account: '102', currency: 'DOGE' },
    ];
    await waitFor(() => expect(fake.calls.dustReview).toEqual([{ rows }]));
    const review = await screen.findByRole('region', { name: 'Conversion review' });
    expect(within(review).getByTestId('verdict').textContent).toContain(
      'Needs 1 approval (rule confirm-every-write, the drafter may approve)',
    );
    // Nothing is drafted before the operator sends it for signing.
    expect(fake.count('dustConvert')).toBe(0);
    await userEvent.click(within(review).getByRole('button', { name: 'Send 2 conversions for signing' }));
    await waitFor(() => expect(fake.calls.dustConvert).toEqual([{ rows }]));
    await waitFor(() => expect(router.state.location.search).toBe('?batch=b-9'));
    const p101 = await screen.findByRole('region', { name: 'Progress of Sub-account 101' });
    expect(within(p101).getByTestId('account-progress').textContent).toBe('1 of 1 converted.');
    const p102 = screen.getByRole('region', { name: 'Progress of Sub-account 102' });
    expect(within(p102).getByTestId('account-progress').textContent).toBe('0 of 1 converted, 1 to go.');
  });

  it("pages an account's conversion history per §8.1 and exports it as CSV", async () => {
    const rows = Array.from({ length: 100 }, (_, i) => ({
      id: String(200 - i),
      currency: i === 0 ? 'PEPEX' : 'DOGE',
      amount: '1',
      gt_amount: '0.01',
      create_time: 1_790_000_000 - i,
    }));
    const fake = fakeDesk({
      ...baseAnswers(),
      dustList: LIST,
      lowCapCurrencies: { currencies: ['PEPEX'], fetched_at: 0 },
      dustHistory: (r) =>
        r.page === 1 ? { rows, page: 1, limit: 100, more: true } : { rows: rows.slice(0, 1), page: r.page!, limit: 100, more: false },
      dustHistoryCsv: { filename: 'small-balance-history-101.csv', csv: 'account,id\n101,7\n', rows: 1 },
    });
    const blobs: Blob[] = [];
    URL.createObjectURL = (b: Blob) => {
      blobs.push(b);
      return 'blob:x';
    };
    URL.revokeObjectURL = () => {};
    renderWithDesk(fake, <SmallBalancesPage />, { at: '/small-balances' });
    const history = await screen.findByRole('region', { name: 'Conversion history' });
    await waitFor(() => expect(fake.calls.dustHistory).toEqual([{ account: 'main', page: 1, limit: 100 }]));
    expect(within(history).getAllByRole('row')).toHaveLength(101);
    expect(within(history).getAllByTestId('low-cap')).toHaveLength(1);
    await userEvent.click(within(history).getByRole('button', { name: 'Older' }));
    await waitFor(() => expect(fake.calls.dustHistory!.at(-1)).toEqual({ account: 'main', page: 2, limit: 100 }));
    await userEvent.selectOptions(within(history).getByLabelText('Account'), '101');
    await waitFor(() => expect(fake.calls.dustHistory!.at(-1)).toEqual({ account: '101', page: 1, limit: 100 }));
    await userEvent.click(within(history).getByRole('button', { name: 'Export CSV' }));
    await waitFor(() => expect(fake.calls.dustHistoryCsv).toEqual([{ account: '101' }]));
    expect((await within(history).findByRole('status')).textContent).toBe('1 conversion exported to small-balance-history-101.csv.');
    const saved = await new Promise<string>((resolve) => {
      const r = new FileReader();
      r.onload = () => resolve(r.result as string);
      r.readAsText(blobs[0]!);
    });
    expect(saved).toBe('account,id\n101,7\n');
  });
});
