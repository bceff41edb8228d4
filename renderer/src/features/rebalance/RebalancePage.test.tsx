import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import type { BatchView, RebalancePlan } from '../../../../shared/rebalance.ts';
import { fakeDesk } from '../../testkit/fakeDesk.ts';
import { baseAnswers, intent } from '../../testkit/fixtures.ts';
import { refusal } from '../../testkit/refusal.ts';
import { renderWithDesk } from '../../testkit/renderPage.tsx';
import RebalancePage from './RebalancePage.tsx';

// The page with a fake core: targets become the request, the plan is shown as the core computed it
// (hops counted, the remainder said, unreachable targets said with by how much), and a batch's states.

const main = { owner: 'main', kind: 'spot' as const };
const a = { owner: '101', kind: 'spot' as const };
const b = { owner: '102', kind: 'futures' as const };
const SCOPE = {
  currency: 'USDT',
  read_at: 1,
  accounts: [
    { account: main, name: '', balance: '0', reachable: true, why: null },
    { account: a, name: 'desk a', balance: '100', reachable: true, why: null },
    { account: b, name: 'desk b', balance: '0.00000001', reachable: true, why: null },
    {
      account: { owner: '102', kind: 'cross_margin' as const },
      name: 'desk b',
      balance: '0',
      reachable: false,
      why: "moving it needs the sub-account's own key",
    },
  ],
};
const leg = (from: typeof a | typeof b | typeof main, to: typeof a | typeof b | typeof main) => ({
  endpoint: '/wallet/sub_account_transfers',
  signer: 'main',
  from,
  to,
  amount: '50',
});
const PLAN: RebalancePlan = {
  id: 'p1',
  read_at: 1,
  currency: 'USDT',
  total: '100.00000001',
  moved: '50',
  transfers: [{ from: a, to: b, amount: '50', legs: [leg(a, main), leg(main, b)] }],
  accounts: [
    { account: a, target: { type: 'share', share: '1/2' }, before: '100', after: '50.00000001' },
    { account: b, target: { type: 'share', share: '1/2' }, before: '0.00000001', after: '50' },
  ],
  bound: 1,
  requests: 2,
  extraHops: 1,
  remainder: '0.00000001',
  unreachable: [],
  expectedSeconds: 0,
};
const batch = (over: Partial<BatchView>): BatchView => ({
  ref: 'r1',
  plan: 'p1',
  title: 'Rebalance USDT: 1 transfer moving 50 USDT',
  currency: 'USDT',
  created_at: 1,
  state: 'running',
  paused: null,
  cancelling: false,
  transfers: 1,
  rows: [{ transfer: 1, from: '101:spot', to: '102:futures', amount: '50', currency: 'USDT', state: 'pending', reason: '' }],
  ...over,
});

describe('Rebalance page', () => {
  it('sends the targets typed, shows the plan with its extra hop and remainder, and drafts it for approval', async () => {
    const fake = fakeDesk({
      ...baseAnswers(),
      rebalanceScope: SCOPE,
      rebalanceBatches: [],
      rebalanceTemplates: [],
      rebalancePlan: PLAN,
      rebalanceDraft: { ticket: 't1', title: 'Rebalance USDT', ref: 'r1' },
    });
    renderWithDesk(fake, <RebalancePage />, { at: '/rebalance' });
    await userEvent.click(await screen.findByRole('button', { name: 'Read balances' }));
    const scope = await screen.findByTestId('scope');
    expect(within(scope).getByLabelText(/^Include Sub-account 102 \(desk b\) · cross margin$/)).toHaveProperty('disabled', true);
    await userEvent.click(within(scope).getByLabelText(/^Include Sub-account 101 \(desk a\) · spot$/));
    await userEvent.click(within(scope).getByLabelText(/^Include Sub-account 102 \(desk b\) · futures$/));
    for (const who of ['Sub-account 101 · spot', 'Sub-account 102 · futures']) {
      await userEvent.selectOptions(screen.getByLabelText(`Target type of ${who}`), 'Share');
      await userEvent.type(screen.getByLabelText(`Share of ${who}`), '1/2');
    }
    await userEvent.click(screen.getByRole('button', { name: 'Plan' }));
    expect(fake.calls.rebalancePlan?.at(-1)).toEqual({
      currency: 'USDT',
      lines: [
        { account: a, target: { type: 'share', share: '1/2' } },
        { account: b, target: { type: 'share', share: '1/2' } },
      ],
    });
    const plan = await screen.findByTestId('plan');
    expect(within(plan).getByRole('heading').textContent).toBe('Plan: 1 transfer moving 50 USDT');
    expect(within(plan).getByTestId('plan-summary').textContent).toMatch(
      /^2 requests to send, of which 1 extra hop through a spot account/,
    );
    expect(within(plan).getByTestId('plan-transfers').textContent).toContain('2 hops (+1): via Main account · spot');
    expect(within(plan).getByTestId('remainder').textContent).toBe(
      'Shares are rounded down to 8 decimals: 0.00000001 USDT stays where it already is.',
    );
    await userEvent.click(screen.getByRole('button', { name: 'Submit for approval' }));
    await screen.findByTestId('submitted');
    expect(fake.calls.rebalanceDraft).toEqual([{ plan: 'p1' }]);
  });

  it('plans with the main account in scope and no figure for it: it takes the remainder, and the plan says what it ends with', async () => {
    const toA = { ...PLAN, moved: '40', remainder: '0', transfers: [{ from: main, to: a, amount: '40', legs: [leg(main, a)] }] };
    const fake = fakeDesk({
      ...baseAnswers(),
      rebalanceScope: { ...SCOPE, accounts: SCOPE.accounts.map((x) => (x.account === main ? { ...x, balance: '675886.797047' } : x)) },
      rebalanceBatches: [],
      rebalanceTemplates: [],
      rebalancePlan: {
        ...toA,
        total: '675986.797047',
        accounts: [
          { account: main, target: { type: 'remainder' }, before: '675886.797047', after: '675846.797047' },
          { account: a, target: { type: 'amount', amount: '140' }, before: '100', after: '140' },
        ],
      },
    });
    renderWithDesk(fake, <RebalancePage />, { at: '/rebalance' });
    await userEvent.click(await screen.findByRole('button', { name: 'Read balances' }));
    const scope = await screen.findByTestId('scope');
    await userEvent.click(within(scope).getByLabelText(/^Include Main account · spot$/));
    await userEvent.click(within(scope).getByLabelText(/^Include Sub-account 101 \(desk a\) · spot$/));
    // The main account offers "takes the remainder" by name, chosen already: no figure to work out by hand.
    const mainType = screen.getByLabelText<HTMLSelectElement>('Target type of Main account · spot');
    expect(mainType.selectedOptions[0]!.textContent).toBe('Takes the remainder');
    expect(screen.queryByLabelText('Target amount of Main account · spot')).toBeNull();
    await userEvent.clear(screen.getByLabelText('Target amount of Sub-account 101 · spot'));
    await userEvent.type(screen.getByLabelText('Target amount of Sub-account 101 · spot'), '140');
    await userEvent.click(screen.getByRole('button', { name: 'Plan' }));
    expect(fake.calls.rebalancePlan?.at(-1)).toEqual({
      currency: 'USDT',
      lines: [
        { account: main, target: { type: 'remainder' } },
        { account: a, target: { type: 'amount', amount: '140' } },
      ],
    });
    const plan = await screen.findByTestId('plan');
    expect(within(plan).getByTestId('takes-remainder').textContent).toBe(
      'Main account · spot takes the remainder: it ends with 675846.797047 USDT.',
    );
    expect(within(within(plan).getByTestId('plan-accounts')).getAllByRole('row')[1]!.textContent).toContain('takes the remainder');
  });

  it('keeps the targets, the plan and its button when the balances are read again under it', async () => {
    const fake = fakeDesk({
      ...baseAnswers(),
      rebalanceScope: SCOPE,
      rebalanceBatches: [],
      rebalanceTemplates: [],
      rebalancePlan: PLAN,
      rebalanceDraft: { ticket: 't1', title: 'Rebalance USDT', ref: 'r1' },
    });
    renderWithDesk(fake, <RebalancePage />, { at: '/rebalance' });
    await userEvent.click(await screen.findByRole('button', { name: 'Read balances' }));
    const scope = await screen.findByTestId('scope');
    await userEvent.click(within(scope).getByLabelText(/^Include Main account · spot$/));
    await userEvent.click(within(scope).getByLabelText(/^Include Sub-account 101 \(desk a\) · spot$/));
    await userEvent.clear(screen.getByLabelText('Target amount of Sub-account 101 · spot'));
    await userEvent.type(screen.getByLabelText('Target amount of Sub-account 101 · spot'), '140');
    await userEvent.click(screen.getByRole('button', { name: 'Plan' }));
    const submit = await screen.findByRole('button', { name: 'Submit for approval' });
    // Money moved somewhere (another operator's transfer): the scope is read again, with new figures.
    const reads = fake.calls.rebalanceScope?.length ?? 0;
    fake.answers.rebalanceScope = { ...SCOPE, accounts: SCOPE.accounts.map((x) => (x.account === a ? { ...x, balance: '90' } : x)) };
    fake.emit('intent', intent({ state: 'done', kind: 'main_sub_transfer' }));
    await waitFor(() => expect(fake.calls.rebalanceScope?.length).toBe(reads + 1));
    await waitFor(() => expect(within(scope).getAllByRole('row')[2]!.textContent).toContain('90'));
    // The same button, the choices as they were, the typed figure kept.
    expect(screen.getByRole('button', { name: 'Submit for approval' })).toBe(submit);
    expect(within(scope).getByLabelText<HTMLInputElement>(/^Include Main account · spot$/).checked).toBe(true);
    expect(within(scope).getByLabelText<HTMLInputElement>(/^Include Sub-account 101 \(desk a\) · spot$/).checked).toBe(true);
    expect(screen.getByLabelText<HTMLInputElement>('Target amount of Sub-account 101 · spot').value).toBe('140');
    await userEvent.click(submit);
    await screen.findByTestId('submitted');
  });

  it('lets any one account take the remainder, and says so when two are set to', async () => {
    const fake = fakeDesk({ ...baseAnswers(), rebalanceScope: SCOPE, rebalanceBatches: [], rebalanceTemplates: [], rebalancePlan: PLAN });
    renderWithDesk(fake, <RebalancePage />, { at: '/rebalance' });
    await userEvent.click(await screen.findByRole('button', { name: 'Read balances' }));
    const scope = await screen.findByTestId('scope');
    await userEvent.click(within(scope).getByLabelText(/^Include Main account · spot$/));
    await userEvent.click(within(scope).getByLabelText(/^Include Sub-account 101 \(desk a\) · spot$/));
    await userEvent.selectOptions(screen.getByLabelText('Target type of Sub-account 101 · spot'), 'Takes the remainder');
    await userEvent.click(screen.getByRole('button', { name: 'Plan' }));
    expect((await screen.findByRole('alert')).textContent).toBe(
      '2 accounts are set to take the remainder: only one can, so choose which and give the others a target.',
    );
    expect(fake.count('rebalancePlan')).toBe(0);
    await userEvent.selectOptions(screen.getByLabelText('Target type of Main account · spot'), 'Amount');
    await userEvent.click(screen.getByRole('button', { name: 'Plan' }));
    await waitFor(() => expect(fake.count('rebalancePlan')).toBe(1));
    expect(fake.calls.rebalancePlan?.at(-1)).toMatchObject({ lines: [{ account: main }, { account: a, target: { type: 'remainder' } }] });
  });

  it("names a bad target or ceiling on its field by the contract's schema and asks for no plan", async () => {
    const fake = fakeDesk({ ...baseAnswers(), rebalanceScope: SCOPE, rebalanceBatches: [], rebalanceTemplates: [], rebalancePlan: PLAN });
    renderWithDesk(fake, <RebalancePage />, { at: '/rebalance' });
    await userEvent.click(await screen.findByRole('button', { name: 'Read balances' }));
    await userEvent.click(within(await screen.findByTestId('scope')).getByLabelText(/^Include Sub-account 101 \(desk a\) · spot$/));
    await userEvent.selectOptions(screen.getByLabelText('Target type of Sub-account 101 · spot'), 'Share');
    await userEvent.type(screen.getByLabelText('Share of Sub-account 101 · spot'), 'half');
    await userEvent.click(screen.getByRole('button', { name: 'Plan' }));
    const share = screen.getByLabelText('Share of Sub-account 101 · spot');
    await waitFor(() => expect(share.getAttribute('aria-invalid')).toBe('true'));
    expect(document.getElementById(share.getAttribute('aria-describedby')!)!.textContent).toBe(
      'A share is a decimal from 0 to 1 or a fraction such as 1/3.',
    );
    await userEvent.type(screen.getByLabelText('Ceiling'), 'lots');
    await userEvent.click(screen.getByRole('button', { name: 'Sweep above the ceiling to the main account' }));
    await waitFor(() => expect(screen.getByLabelText('Ceiling').getAttribute('aria-invalid')).toBe('true'));
    expect(fake.count('rebalancePlan')).toBe(0);
  });

  it('puts a refusal of the core on the target its path names', async () => {
    const fake = fakeDesk({
      ...baseAnswers(),
      rebalanceScope: SCOPE,
      rebalanceBatches: [],
      rebalanceTemplates: [],
      rebalancePlan: refusal('rebalancePlan', ['lines', 1, 'target', 'amount'], 'a target cannot be above the total in scope') as never,
    });
    renderWithDesk(fake, <RebalancePage />, { at: '/rebalance' });
    await userEvent.click(await screen.findByRole('button', { name: 'Read balances' }));
    const scope = await screen.findByTestId('scope');
    await userEvent.click(within(scope).getByLabelText(/^Include Sub-account 101 \(desk a\) · spot$/));
    await userEvent.click(within(scope).getByLabelText(/^Include Sub-account 102 \(desk b\) · futures$/));
    await userEvent.clear(screen.getByLabelText('Target amount of Sub-account 102 · futures'));
    await userEvent.type(screen.getByLabelText('Target amount of Sub-account 102 · futures'), '500');
    await userEvent.click(screen.getByRole('button', { name: 'Plan' }));
    const amount = screen.getByLabelText('Target amount of Sub-account 102 · futures');
    await waitFor(() => expect(amount.getAttribute('aria-invalid')).toBe('true'));
    expect(document.getElementById(amount.getAttribute('aria-describedby')!)!.textContent).toBe(
      'A target cannot be above the total in scope.',
    );
    expect(screen.getByLabelText('Target amount of Sub-account 101 · spot').getAttribute('aria-invalid')).toBeNull();
    expect(fake.count('rebalancePlan')).toBe(1);
    expect(screen.queryByRole('alert')).toBeNull();
  });

  it('says which targets cannot be met and by how much, and offers no submit', async () => {
    const unreachable = { ...PLAN, transfers: [], unreachable: [{ account: b, problem: 'short' as const, by: '5' }] };
    const fake = fakeDesk({
      ...baseAnswers(),
      rebalanceScope: SCOPE,
      rebalanceBatches: [],
      rebalanceTemplates: [],
      rebalancePlan: unreachable,
    });
    renderWithDesk(fake, <RebalancePage />, { at: '/rebalance' });
    await userEvent.click(await screen.findByRole('button', { name: 'Read balances' }));
    await userEvent.click(within(await screen.findByTestId('scope')).getByLabelText(/^Include Sub-account 101 \(desk a\) · spot$/));
    await userEvent.click(screen.getByRole('button', { name: 'Equalize' }));
    expect(fake.calls.rebalancePlan?.at(-1)).toEqual({ currency: 'USDT', preset: { kind: 'equalize' }, accounts: [a] });
    expect((await screen.findByTestId('unreachable')).textContent).toBe('Sub-account 102 · futures: stays short of its target by 5 USDT');
    expect(screen.queryByRole('button', { name: 'Submit for approval' })).toBeNull();
  });

  it('shows a paused batch with its reason, resumes or cancels it, and a finished one with its report', async () => {
    const fake = fakeDesk({
      ...baseAnswers(),
      rebalanceTemplates: [],
      rebalanceBatches: [
        batch({ state: 'paused', paused: '101:spot now holds 5 USDT, less than the 50 the rest of the batch takes from it (short by 45)' }),
        batch({
          ref: 'r0',
          state: 'finished',
          rows: [
            {
              transfer: 1,
              from: '101:spot',
              to: '102:spot',
              amount: '3',
              currency: 'USDT',
              state: 'failed',
              reason: 'Not enough balance.',
            },
          ],
        }),
      ],
      rebalanceResume: batch({}),
      rebalanceCancel: batch({}),
    });
    renderWithDesk(fake, <RebalancePage />, { at: '/rebalance' });
    const [paused, finished] = await screen.findAllByTestId('batch');
    expect(within(paused!).getByTestId('paused-reason').textContent).toMatch(/short by 45/);
    await userEvent.click(within(paused!).getByRole('button', { name: 'Read balances and resume' }));
    await userEvent.click(within(paused!).getByRole('button', { name: 'Cancel the rest' }));
    await waitFor(() => expect(fake.calls.rebalanceCancel).toEqual([{ ref: 'r1', reason: 'the operator pressed Cancel' }]));
    expect(fake.calls.rebalanceResume).toEqual([{ ref: 'r1' }]);
    expect(within(finished!).getByTestId('batch-state').textContent).toBe('Finished: 0 done, 1 failed, 0 skipped.');
    expect(within(finished!).getByTestId('batch-report').textContent).toContain('Not enough balance.');
  });

  it('lists every batch until it is archived, not only the three most recent, and archives an ended one', async () => {
    const finished = (ref: string, title: string) =>
      batch({ ref, title, state: 'finished', rows: [{ ...batch({}).rows[0]!, state: 'done' }] });
    const all = [
      batch({ ref: 'r5', title: 'Rebalance USDT: waiting', state: 'waiting', rows: [] }),
      finished('r4', 'Rebalance USDT: fourth'),
      finished('r3', 'Rebalance USDT: third'),
      finished('r2', 'Rebalance USDT: second'),
      finished('r1', 'Rebalance USDT: first'),
    ];
    const fake = fakeDesk({
      ...baseAnswers(),
      rebalanceTemplates: [],
      rebalanceBatches: all,
      rebalanceArchive: (r) => {
        fake.answers.rebalanceBatches = all.filter((b) => b.ref !== r.ref);
        return { archived: true };
      },
    });
    renderWithDesk(fake, <RebalancePage />, { at: '/rebalance' });
    await waitFor(() => expect(screen.getAllByTestId('batch')).toHaveLength(5));
    const panels = screen.getAllByTestId('batch');
    expect(panels.map((p) => within(p).getByRole('heading').textContent)).toEqual(all.map((b) => b.title));
    // Waiting for its signatures, it cannot be archived; a finished one can.
    expect(within(panels[0]!).queryByRole('button', { name: 'Archive' })).toBeNull();
    await userEvent.click(within(panels[4]!).getByRole('button', { name: 'Archive' }));
    await waitFor(() => expect(screen.getAllByTestId('batch')).toHaveLength(4));
    expect(fake.calls.rebalanceArchive).toEqual([{ ref: 'r1' }]);
    expect(screen.queryByRole('heading', { name: 'Rebalance USDT: first' })).toBeNull();
  });
});
