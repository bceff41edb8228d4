import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import type { ChannelRequest } from '../../../../shared/ipc.ts';
import { fakeDesk } from '../../testkit/fakeDesk.ts';
import { baseAnswers, intent, SANDBOX_PROFILE } from '../../testkit/fixtures.ts';
import { refusal } from '../../testkit/refusal.ts';
import { renderWithDesk } from '../../testkit/renderPage.tsx';
import { TransfersPage } from '../history/index.ts';
import { buildBodyForTest } from './testkit/body.ts';

// The Transfers page's forms with a fake desk: the balance each draws from (and its age), an amount
// above it refused before anything is asked of the core, the exact request each form hands the core
// (and the wire body the core builds from it), the review step, and the form the matrix's "Transfer…" opens pre-filled
// (the matrix's rows are virtual, so its link is checked in e2e/transfers.e2e.ts).

const NOW = Date.now();
const MAIN = {
  fetched_at: NOW,
  quote: 'USDT',
  total: '0',
  cross_margin: null,
  cells: Object.fromEntries(
    ['spot', 'margin', 'futures_usdt', 'futures_btc', 'futures_usd', 'cross_margin'].map((k) => [
      k,
      { value: '0', amounts: {}, unpriced: [] },
    ]),
  ),
  spot: [{ currency: 'USDT', available: '1000', locked: '0' }],
  margin: [{ currency_pair: 'BTC_USDT', base: { currency: 'BTC', available: '0.5' }, quote: { currency: 'USDT', available: '300' } }],
  futures: { usdt: { currency: 'USDT', available: '250' } },
};
const sub = (uid: string, usdt: string, ageMs: number) => ({
  uid,
  name: `sub_${uid}`,
  fetched_at: NOW - ageMs,
  source: 'exchange' as const,
  error: null,
  row: null,
  spot: { available: { USDT: usdt } },
  margin: [],
  futures: { usdt: { currency: 'USDT', available: '40' } },
  cross_margin: null,
  risk_threshold: '1.5',
  floors: [],
  alerts: [],
});
const VERDICT = {
  decision: 'require' as const,
  rule: 'confirm-every-write',
  approvals: 1,
  drafter_may_approve: true,
  rules: [{ rule: 'confirm-every-write', matched: true, why: ['matches every write'] }],
};

const WALLET_READ = { spot: 'write', futures: 'write', delivery: 'write', wallet: 'read', withdraw: 'write', unified: false } as const;

function desk(subKeys: string[] = [], readOnly: string[] = []) {
  return fakeDesk({
    ...baseAnswers(),
    profileCurrent: {
      ...SANDBOX_PROFILE,
      sub_keys: [
        ...subKeys.map((uid) => ({ uid, key_masked: 'k…y' })),
        ...readOnly.map((uid) => ({ uid, key_masked: 'k…y', permissions: WALLET_READ })),
      ],
    },
    balancesMain: MAIN as never,
    balancesSubAccount: (r) => sub(r.uid, r.uid === '101' ? '75.5' : '20', 7 * 60_000),
    approvalsReview: (r) => ({
      kind: r.write.kind,
      body: buildBodyForTest(r.write),
      ...(r.write.kind === 'sub_own_transfer' ? { signer: r.write.input.sub_account } : {}),
      verdict: VERDICT,
      destination_note: null,
    }),
    approvalsDraft: { ticket: 't-1', title: 'Draft a transfer', ref: 'r-1' },
    requestStatus: { ref: 'r-1', state: 'to_sign', approved_by: [], needed: 1, rejected: null, expires_at: null, intent: null },
  });
}

const reviewed = (fake: ReturnType<typeof desk>) => fake.calls.approvalsReview as ChannelRequest<'approvalsReview'>[] | undefined;

async function open(kind: string) {
  await userEvent.click(await screen.findByRole('button', { name: 'New transfer' }));
  await userEvent.click(await screen.findByRole('button', { name: kind }));
}

async function fill(label: string, value: string) {
  const input = screen.getByLabelText(label);
  await userEvent.clear(input);
  await userEvent.type(input, value);
}

describe('Transfer forms', () => {
  it("between the main account's own accounts: shows the balance it draws from, refuses more than it holds before asking the core, then reviews the exact body", async () => {
    const fake = desk();
    renderWithDesk(fake, <TransfersPage />);
    await open("Main account's own accounts");
    await userEvent.selectOptions(screen.getByLabelText('From account'), 'margin');
    await userEvent.selectOptions(screen.getByLabelText('To account'), 'spot');
    await fill('Currency pair', 'btc_usdt');
    expect((await screen.findByTestId('draw-balance')).textContent).toMatch(/main account's margin account: 300 USDT available \(fresh/);
    await fill('Amount', '300.01');
    await userEvent.click(screen.getByRole('button', { name: 'Review' }));
    expect(await screen.findByText(/above what the source account holds \(300 USDT available\)/)).toBeTruthy();
    expect(fake.count('approvalsReview')).toBe(0);

    await fill('Amount', '300');
    await userEvent.click(screen.getByRole('button', { name: 'Review' }));
    await waitFor(() =>
      expect(reviewed(fake)).toEqual([
        {
          write: {
            kind: 'own_transfer',
            input: { currency: 'USDT', from: 'margin', to: 'spot', amount: '300', currency_pair: 'BTC_USDT' },
          },
        },
      ]),
    );
    const review = await screen.findByRole('region', { name: 'Review' });
    expect(within(review).getByTestId('review-body').textContent).toMatch(/currency_pairBTC_USDT/);
    await userEvent.click(within(review).getByRole('button', { name: 'Send for signing' }));
    expect(await screen.findByTestId('awaiting-signature')).toBeTruthy();
    expect(fake.calls.approvalsDraft).toEqual(reviewed(fake));
  });

  it('futures names its settle currency; spot to futures sends no currency_pair', async () => {
    const fake = desk();
    renderWithDesk(fake, <TransfersPage />);
    await open("Main account's own accounts");
    expect(screen.queryByLabelText('Currency pair')).toBeNull();
    await fill('Amount', '250');
    await userEvent.click(screen.getByRole('button', { name: 'Review' }));
    await waitFor(() =>
      expect(buildBodyForTest(reviewed(fake)![0]!.write)).toEqual({
        currency: 'USDT',
        from: 'spot',
        to: 'futures',
        amount: '250',
        settle: 'usdt',
      }),
    );
  });

  it('main to sub and sub to main: the body has sub_account_type, and the core adds the client_order_id', async () => {
    const fake = desk();
    renderWithDesk(fake, <TransfersPage />);
    await open('Main ↔ sub-account');
    await fill('Sub-account uid', '101');
    await fill('Amount', '1000.5');
    await userEvent.click(screen.getByRole('button', { name: 'Review' }));
    expect(await screen.findByText(/1000 USDT available/)).toBeTruthy();
    expect(fake.count('approvalsReview')).toBe(0);

    await userEvent.selectOptions(screen.getByLabelText('Direction'), 'from');
    expect((await screen.findByTestId('draw-balance')).textContent).toMatch(
      /sub-account 101's spot account: 75.5 USDT available \(read 7 min ago\)/,
    );
    await fill('Amount', '75.5');
    await userEvent.click(screen.getByRole('button', { name: 'Review' }));
    await waitFor(() => expect(reviewed(fake)).toHaveLength(1));
    const write = reviewed(fake)![0]!.write;
    expect(write).toEqual({
      kind: 'main_sub_transfer',
      input: { sub_account: '101', sub_account_type: 'spot', currency: 'USDT', amount: '75.5', direction: 'from' },
    });
    expect(buildBodyForTest(write, 'desk-id-1')).toEqual({
      sub_account: '101',
      sub_account_type: 'spot',
      currency: 'USDT',
      amount: '75.5',
      direction: 'from',
      client_order_id: 'desk-id-1',
    });
  });

  it('offers the known sub-accounts by login name and uid in each uid field, and still checks what is typed', async () => {
    const fake = desk();
    const row = (uid: string, name: string) => ({ uid, name, cells: {}, total: '0', cross_risk: null, margin_risk: null, alerts: 0 });
    fake.answers.balancesMatrix = {
      ...(baseAnswers().balancesMatrix as object),
      total_rows: 2,
      rows: [row('101', 'desk_ops'), row('102', 'market_maker')],
    } as never;
    renderWithDesk(fake, <TransfersPage />);
    await open('Sub-account → sub-account');
    const from = screen.getByLabelText('From sub-account uid');
    const to = screen.getByLabelText('To sub-account uid');
    // Both fields pick from one list: every sub-account the matrix's load found, by name and uid.
    const list = await screen.findByTestId('known-sub-accounts');
    expect(from.getAttribute('list')).toBe(list.id);
    expect(to.getAttribute('list')).toBe(list.id);
    await waitFor(() =>
      expect([...list.querySelectorAll('option')].map((o) => [o.value, o.label])).toEqual([
        ['101', 'desk_ops (101)'],
        ['102', 'market_maker (102)'],
      ]),
    );
    expect(fake.calls.balancesMatrix?.at(-1)).toMatchObject({ quote: 'USDT', limit: 1000 });
    const hint = (input: HTMLElement) => document.getElementById(input.getAttribute('aria-describedby')!.split(' ')[0]!)!.textContent;
    expect(hint(from)).toBe('pick one of 2 sub-accounts, or type a uid');
    await fill('From sub-account uid', '102');
    expect(hint(from)).toBe('market_maker (102)');
    await fill('To sub-account uid', '999');
    expect(hint(to)).toBe('999 is not among the 2 sub-accounts the desk loaded; the exchange checks it');
    // A picked or typed value is checked by the same schema as before.
    await fill('To sub-account uid', 'desk_ops');
    await fill('Amount', '1');
    await userEvent.click(screen.getByRole('button', { name: 'Review' }));
    expect(await screen.findByText(/Must be a sub-account uid|digits/)).toBeTruthy();
    expect(fake.count('approvalsReview')).toBe(0);
  });

  it('shows the balances again once a transfer has moved money, not the figures from before it', async () => {
    const fake = desk();
    renderWithDesk(fake, <TransfersPage />);
    await open('Main ↔ sub-account');
    await fill('Sub-account uid', '101');
    await userEvent.selectOptions(screen.getByLabelText('Direction'), 'from');
    expect((await screen.findByTestId('draw-available')).textContent).toBe('75.5 USDT');
    // A transfer of 200 to sub-account 101 reaches the exchange; the core reads the sub-accounts again.
    fake.answers.balancesSubAccount = (r) => sub(r.uid, r.uid === '101' ? '275.5' : '20', 0);
    fake.emit('intent', intent({ id: 't-200', kind: 'main_sub_transfer', state: 'done', body: { sub_account: '101', amount: '200' } }));
    await waitFor(() => expect(screen.getByTestId('draw-available').textContent).toBe('275.5 USDT'));
    expect(screen.getByTestId('draw-balance').textContent).toMatch(/fresh/);

    // The main account's side too: the form read it again when the money moved.
    const mainReads = fake.count('balancesMain');
    fake.answers.balancesMain = { ...MAIN, spot: [{ currency: 'USDT', available: '800', locked: '0' }] } as never;
    await userEvent.selectOptions(screen.getByLabelText('Direction'), 'to');
    fake.emit('intent', intent({ id: 't-201', kind: 'main_sub_transfer', state: 'accepted', body: { sub_account: '101', amount: '200' } }));
    await waitFor(() => expect(fake.count('balancesMain')).toBeGreaterThan(mainReads));
    await waitFor(() => expect(screen.getByTestId('draw-available').textContent).toBe('800 USDT'));

    // The end of the core's load of the sub-accounts is the other signal: the figures it read are shown.
    await userEvent.selectOptions(screen.getByLabelText('Direction'), 'from');
    fake.answers.balancesSubAccount = (r) => sub(r.uid, r.uid === '101' ? '475.5' : '20', 0);
    fake.emit('balancesProgress', { scope: 'sub_accounts', loaded: 15, total: 15, done: true, error: null });
    await waitFor(() => expect(screen.getByTestId('draw-available').textContent).toBe('475.5 USDT'));
  });

  it("offers no sub-account balance from the desk's cache as available: it waits for the exchange's figures", async () => {
    const fake = desk();
    // A new start: the core shows the last run's figures while it reads the exchange.
    fake.answers.balancesSubAccount = (r) => ({ ...sub(r.uid, '5000', 30 * 60_000), source: 'cache' });
    renderWithDesk(fake, <TransfersPage />);
    await open('Main ↔ sub-account');
    await fill('Sub-account uid', '101');
    await userEvent.selectOptions(screen.getByLabelText('Direction'), 'from');
    await waitFor(() => expect(fake.count('balancesSubAccount')).toBeGreaterThan(0));
    expect(screen.getByTestId('draw-balance').textContent).toMatch(/reading its balance…/);
    expect(screen.queryByTestId('draw-available')).toBeNull();
    // The exchange's figures arrive (the form asks again while it waits): those are the ones offered.
    fake.answers.balancesSubAccount = (r) => sub(r.uid, '75.5', 0);
    await waitFor(() => expect(screen.getByTestId('draw-available').textContent).toBe('75.5 USDT'), { timeout: 5_000 });
  });

  it('sub to sub: draws from the source sub-account, each side typed', async () => {
    const fake = desk();
    renderWithDesk(fake, <TransfersPage />);
    await open('Sub-account → sub-account');
    await fill('From sub-account uid', '102');
    await userEvent.selectOptions(screen.getByLabelText('Its account (from)'), 'futures');
    await fill('To sub-account uid', '101');
    expect((await screen.findByTestId('draw-balance')).textContent).toMatch(/sub-account 102's futures account: 40 USDT/);
    await fill('Amount', '40');
    await userEvent.click(screen.getByRole('button', { name: 'Review' }));
    await waitFor(() => expect(reviewed(fake)).toHaveLength(1));
    expect(buildBodyForTest(reviewed(fake)![0]!.write)).toEqual({
      currency: 'USDT',
      sub_account_from: '102',
      sub_account_from_type: 'futures',
      sub_account_to: '101',
      sub_account_to_type: 'spot',
      amount: '40',
    });
  });

  it("within a sub-account: offered only when the profile holds its key; signed by that key, the body is §4.1's", async () => {
    const none = desk();
    const first = renderWithDesk(none, <TransfersPage />);
    await userEvent.click(await screen.findByRole('button', { name: 'New transfer' }));
    expect(await screen.findByRole('button', { name: "Main account's own accounts" })).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Within a sub-account (its key)' })).toBeNull();
    first.unmount();

    const fake = desk(['101'], ['103']);
    renderWithDesk(fake, <TransfersPage />);
    await open('Within a sub-account (its key)');
    const signer = screen.getByLabelText('Sub-account (signs with its own key)') as HTMLSelectElement;
    expect(signer.value).toBe('101');
    // A key the exchange proved wallet read-only is not offered, and the form says why.
    expect([...signer.options].map((o) => o.value)).toEqual(['101']);
    expect(screen.getByTestId('unable-keys').textContent).toMatch(/sub-account 103 .*may only read/);
    await fill('Amount', '75.5');
    await userEvent.click(screen.getByRole('button', { name: 'Review' }));
    await waitFor(() => expect(reviewed(fake)).toHaveLength(1));
    const write = reviewed(fake)![0]!.write;
    expect(write).toEqual({
      kind: 'sub_own_transfer',
      input: { sub_account: '101', currency: 'USDT', from: 'spot', to: 'futures', amount: '75.5', settle: 'usdt' },
    });
    expect(buildBodyForTest(write)).toEqual({ currency: 'USDT', from: 'spot', to: 'futures', amount: '75.5', settle: 'usdt' });
    expect((await screen.findByRole('region', { name: 'Review' })).textContent).toMatch(/Signed bysub-account 101's own key/);
  });

  it("a bad field is named by the contract's schema and nothing is asked", async () => {
    const fake = desk();
    renderWithDesk(fake, <TransfersPage />);
    await open('Main ↔ sub-account');
    await fill('Sub-account uid', 'bob');
    await fill('Amount', '1.123456789');
    await userEvent.click(screen.getByRole('button', { name: 'Review' }));
    expect(await screen.findByText('Must be a user id (digits).')).toBeTruthy();
    expect(screen.getByLabelText('Sub-account uid').getAttribute('aria-invalid')).toBe('true');
    expect(screen.getByText(/8 decimal places/)).toBeTruthy();
    expect(fake.count('approvalsReview')).toBe(0);
  });

  it('the same account on both sides is said on "To account", and changing "From" clears it', async () => {
    const fake = desk();
    renderWithDesk(fake, <TransfersPage />);
    await open("Main account's own accounts");
    await userEvent.selectOptions(screen.getByLabelText('To account'), 'spot');
    await fill('Amount', '5');
    await userEvent.click(screen.getByRole('button', { name: 'Review' }));
    const to = screen.getByLabelText('To account');
    await waitFor(() => expect(to.getAttribute('aria-invalid')).toBe('true'));
    expect(document.getElementById(to.getAttribute('aria-describedby')!)!.textContent).toBe('From and to must be different accounts.');
    expect(fake.count('approvalsReview')).toBe(0);
    await userEvent.selectOptions(screen.getByLabelText('From account'), 'futures');
    await waitFor(() => expect(to.getAttribute('aria-invalid')).toBeNull());
  });

  it('puts a refusal of the core on the field its path names, not in a panel', async () => {
    const fake = desk();
    fake.answers.approvalsReview = refusal(
      'approvalsReview',
      ['write', 'input', 'sub_account'],
      "sub-account 101 is not one of this account's sub-accounts",
    ) as never;
    renderWithDesk(fake, <TransfersPage />);
    await open('Main ↔ sub-account');
    await fill('Sub-account uid', '101');
    await fill('Amount', '5');
    await userEvent.click(screen.getByRole('button', { name: 'Review' }));
    const uid = screen.getByLabelText('Sub-account uid');
    await waitFor(() => expect(uid.getAttribute('aria-invalid')).toBe('true'));
    // The field describes itself by its hint (the picked sub-account), then its error.
    expect(document.getElementById(uid.getAttribute('aria-describedby')!.split(' ').at(-1)!)!.textContent).toBe(
      "Sub-account 101 is not one of this account's sub-accounts.",
    );
    expect(fake.count('approvalsReview')).toBe(1);
    expect(screen.queryByRole('alert')).toBeNull();
  });

  it('the address opens the form pre-filled, as the matrix\'s "Transfer…" links it', async () => {
    const fake = desk();
    renderWithDesk(fake, <TransfersPage />, { at: '/?new=main_sub&sub=101' });
    expect(((await screen.findByLabelText('Sub-account uid')) as HTMLInputElement).value).toBe('101');
    expect(screen.getByRole('button', { name: 'Main ↔ sub-account' }).getAttribute('aria-pressed')).toBe('true');
  });
});
