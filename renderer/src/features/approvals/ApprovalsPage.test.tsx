import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import type { ApprovalItem } from '../../../../shared/ipc.ts';
import { fakeDesk } from '../../testkit/fakeDesk.ts';
import { APPROVALS, baseAnswers } from '../../testkit/fixtures.ts';
import { refusal } from '../../testkit/refusal.ts';
import { renderWithDesk } from '../../testkit/renderPage.tsx';
import ApprovalsPage from './ApprovalsPage.tsx';

const WAITING: ApprovalItem = {
  ref: 'r-1',
  what: 'request',
  profile: 'sandbox',
  kind: 'withdrawal',
  body: { currency: 'USDT', chain: 'TRX', address: 'TQn9Y2khEsLJW1ChVWFMSMeRDow5KcbLSE', amount: '25' },
  summary: '25 USDT to TQn9Y2khEsLJW1ChVWFMSMeRDow5KcbLSE (TRX)',
  drafted_by: 'Alice',
  drafted_at: 1_700_000_000_000,
  approved_by: [],
  needed: 2,
  state: 'waiting',
  expires_at: 1_700_259_200_000,
  effective_at: null,
  rejected: null,
};

describe('Approvals page', () => {
  it('shows a decided item under the rule, quorum and policy recorded then, and an old record as not recorded', async () => {
    const sent: ApprovalItem = {
      ...WAITING,
      ref: 'r-sent',
      summary: '12.5 USDT to TQn9Y2khEsLJW1ChVWFMSMeRDow5KcbLSE on TRX',
      approved_by: ['Alice'],
      needed: 1,
      state: 'sent',
      expires_at: null,
      verdict: { decision: 'require', rule: 'two-for-book', approvals: 2, drafter_may_approve: true, rules: [] },
      decided: { profile: 'sandbox', policy: null, version: 0, rule: 'confirm-every-write', quorum: 1 },
    };
    const old: ApprovalItem = { ...sent, ref: 'r-old', summary: '7 USDT to TQn9Y2khEsLJW1ChVWFMSMeRDow5KcbLSE on TRX', decided: null };
    renderWithDesk(fakeDesk({ ...baseAnswers(), approvalsState: { ...APPROVALS, items: [sent, old] } }), <ApprovalsPage />, {
      at: '/approvals',
    });
    const [first, second] = await screen.findAllByTestId('approval-item');
    expect(within(first!).getByTestId('decided').textContent).toBe('confirm-every-write · quorum 1 · the default policy');
    expect(first!.textContent).not.toContain('two-for-book');
    expect(within(second!).getByTestId('decided').textContent).toBe('rule not recorded (decided before the desk recorded it)');
  });

  it('asks the confirmation window to approve or reject a waiting request, and never signs itself', async () => {
    const fake = fakeDesk({
      ...baseAnswers(),
      approvalsState: { ...APPROVALS, items: [WAITING] },
      approvalsDecide: (r) => ({ ticket: 't-1', title: r.action === 'approve' ? 'Approve a request' : 'Reject a request' }),
    });
    renderWithDesk(fake, <ApprovalsPage />, { at: '/approvals' });
    const row = await screen.findByTestId('approval-item');
    expect(row.textContent).toContain('2 more');
    expect(within(row).getByTestId('item-state').textContent).toMatch(/^waiting \(expires .+\)$/);

    // A rejection needs its reason before it can be asked for.
    const reject = within(row).getByRole('button', { name: 'Reject' });
    expect((reject as HTMLButtonElement).disabled).toBe(true);
    await userEvent.type(within(row).getByRole('textbox', { name: 'Reason' }), 'unknown payee');
    await userEvent.click(reject);
    await waitFor(() => expect(fake.calls.approvalsDecide).toEqual([{ ref: 'r-1', action: 'reject', reason: 'unknown payee' }]));

    await userEvent.click(within(row).getByRole('button', { name: 'Approve' }));
    await waitFor(() => expect(fake.calls.approvalsDecide?.[1]).toEqual({ ref: 'r-1', action: 'approve' }));
    expect((await screen.findByTestId('asked')).textContent).toBe('Sign in the confirmation window: “Approve a request”.');
    // The main window takes no operator passphrase: that is the confirmation window's alone.
    expect(screen.queryByLabelText(/passphrase/i)).toBeNull();
  });

  it('says on a team which desk drafted a request and at which desk each operator signed it', async () => {
    const teamItem: ApprovalItem = {
      ...WAITING,
      approved_by: ['Bob'],
      desks: {
        drafted: 'desk-0a1b2c3d4e5f',
        signed: [
          { name: 'Alice', desk: 'desk-0a1b2c3d4e5f' },
          { name: 'Bob', desk: 'desk-99aa88bb77cc' },
        ],
        here: 'desk-99aa88bb77cc',
      },
    };
    const fake = fakeDesk({ ...baseAnswers(), approvalsState: { ...APPROVALS, items: [teamItem, { ...WAITING, ref: 'r-2' }] } });
    renderWithDesk(fake, <ApprovalsPage />, { at: '/approvals' });
    const [team, alone] = await screen.findAllByTestId('approval-item');
    expect(team!.textContent).toContain('Drafted by Alice at desk-0a1b2c3d4e5f');
    expect(within(team!).getByTestId('signed-at').textContent).toBe(
      'Signed by Alice at desk-0a1b2c3d4e5f; by Bob at desk-99aa88bb77cc (this desk)',
    );
    // A desk on its own store names no desk.
    expect(alone!.textContent).toContain('Drafted by Alice');
    expect(alone!.textContent).not.toContain(' at desk-');
    expect(within(alone!).queryByTestId('signed-at')).toBeNull();
  });

  it('offers an auditor desk nothing to sign or send: the queue, operators and policy to read only', async () => {
    const fake = fakeDesk({
      ...baseAnswers(),
      approvalsState: {
        ...APPROVALS,
        items: [WAITING],
        frozen: { by: 'Alice', at: 1_700_000_000_000, reason: 'audit' },
        read_only: "this is an auditor desk: it reads and verifies the team's queue and records, and signs and sends nothing",
      },
    });
    renderWithDesk(fake, <ApprovalsPage />, { at: '/approvals' });
    const row = await screen.findByTestId('approval-item');
    expect(row.textContent).toContain('Drafted by Alice');
    expect(screen.getByTestId('read-only').textContent).toBe(
      "This is an auditor desk: it reads and verifies the team's queue and records, and signs and sends nothing.",
    );
    expect(screen.queryAllByRole('button')).toEqual([]);
    expect(screen.queryByRole('textbox', { name: 'Reason' })).toBeNull();
  });

  it("checks a rejection's reason by the contract's schema, and puts the core's refusal of it on the reason", async () => {
    const fake = fakeDesk({
      ...baseAnswers(),
      approvalsState: { ...APPROVALS, items: [WAITING] },
      approvalsDecide: refusal('approvalsDecide', ['reason'], 'a reason names what is wrong with the request') as never,
    });
    renderWithDesk(fake, <ApprovalsPage />, { at: '/approvals' });
    const row = await screen.findByTestId('approval-item');
    const reason = within(row).getByRole('textbox', { name: 'Reason' });
    await userEvent.click(reason);
    await userEvent.paste('x'.repeat(501));
    await userEvent.click(within(row).getByRole('button', { name: 'Reject' }));
    await waitFor(() => expect(reason.getAttribute('aria-invalid')).toBe('true'));
    expect(document.getElementById(reason.getAttribute('aria-describedby')!)!.textContent).toBe('At most 500 characters.');
    expect(fake.count('approvalsDecide')).toBe(0);

    await userEvent.clear(reason);
    await userEvent.type(reason, 'no');
    await userEvent.click(within(row).getByRole('button', { name: 'Reject' }));
    await waitFor(() =>
      expect(document.getElementById(reason.getAttribute('aria-describedby') ?? '')?.textContent).toBe(
        'A reason names what is wrong with the request.',
      ),
    );
    expect(fake.calls.approvalsDecide).toEqual([{ ref: 'r-1', action: 'reject', reason: 'no' }]);
    expect(within(row).queryByRole('alert')).toBeNull();
  });

  it('says when the cooling-off comes from the variable, which only the Sandbox profile heeds', async () => {
    renderWithDesk(
      fakeDesk({ ...baseAnswers(), approvalsState: { ...APPROVALS, cooling_off_hours: 0, cooling_off_variable: true } }),
      <ApprovalsPage />,
      {
        at: '/approvals',
      },
    );
    expect((await screen.findByTestId('cooling-off-variable')).textContent).toMatch(
      /the Sandbox profile's play-money wait \(none unless TREASURY_DESK_COOLING_OFF_HOURS sets one\); every other profile waits 24 h/,
    );
  });

  it("shows each operator's role and asks the confirmation window for a role change", async () => {
    const fake = fakeDesk({
      ...baseAnswers(),
      approvalsState: {
        ...APPROVALS,
        operators: [
          { id: 'op-1', name: 'Alice', state: 'in_force', role: 'admin', role_ahead: 'admin' },
          { id: 'op-2', name: 'Dan', state: 'in_force', role: 'drafter', role_ahead: 'approver' },
        ],
      },
      approvalsSetRole: (r) => ({ ticket: 't-9', title: `Make Dan an ${r.role}` }),
    });
    renderWithDesk(fake, <ApprovalsPage />, { at: '/approvals' });
    const dan = (await screen.findAllByTestId('operator'))[1]!;
    expect(dan.textContent).toContain('drafter (becomes approver after the cooling-off)');
    await userEvent.selectOptions(within(dan).getByLabelText('New role for Dan'), 'admin');
    await userEvent.click(within(dan).getByRole('button', { name: 'Propose role change' }));
    await waitFor(() => expect(fake.calls.approvalsSetRole).toEqual([{ id: 'op-2', role: 'admin' }]));
    expect((await screen.findByTestId('asked')).textContent).toBe('Sign in the confirmation window: “Make Dan an admin”.');
  });

  it('replays the policy being edited against the last 30 days before it is proposed', async () => {
    const replay = {
      from: 0,
      to: 1,
      counted: { desk: 1, exchange: 4 },
      rules: [{ rule: 'confirm-every-write', allowed: 0, held: 5, blocked: 0 }],
      changed: [],
      changed_total: 0,
    };
    const fake = fakeDesk({ ...baseAnswers(), approvalsState: APPROVALS, policyReplay: replay });
    renderWithDesk(fake, <ApprovalsPage />, { at: '/approvals' });
    await userEvent.click(await screen.findByText('Propose a new policy'));
    const panel = await screen.findByTestId('policy-replay');
    expect(panel.textContent).toContain('Replayed against 5 requests');
    expect(fake.calls.policyReplay?.at(-1)).toEqual({ policy: { rules: APPROVALS.policy.rules, request_expiry_hours: 72 } });
  });

  it('lists the address book with who signed each entry and when it counts, and proposes a removal', async () => {
    const entry = {
      currency: 'USDT',
      chain: 'TRX',
      address: 'TQn9Y2khEsLJW1ChVWFMSMeRDow5KcbLSE',
      added_at: 1_700_000_000_000,
      ready_at: 4_000_000_000_000,
      signed_by: 'Alice',
      removed: false,
      refused: null,
    };
    const fake = fakeDesk({
      ...baseAnswers(),
      approvalsState: APPROVALS,
      addressBookList: [
        entry,
        {
          ...entry,
          address: 'TJRabPrwbZy45sbavfcjinPJC18kjpRTv8',
          removed: true,
          refused: 'Removed from the address book by a quorum of operators: it is no known destination.',
        },
      ],
      addressBookRemove: { ticket: 't-7', title: 'Remove TQn9Y2khEsLJW1ChVWFMSMeRDow5KcbLSE (USDT on TRX) from the address book' },
    });
    renderWithDesk(fake, <ApprovalsPage />, { at: '/approvals' });
    const rows = within(await screen.findByTestId('address-book'))
      .getAllByRole('row')
      .slice(1);
    expect(rows[0]!.textContent).toMatch(/USDT on TRX.*TQn9Y2khEsLJW1ChVWFMSMeRDow5KcbLSE.*Alice.*Cooling off until/);
    expect(rows[1]!.textContent).toContain('Removed from the address book by a quorum');
    expect(within(rows[1]!).queryByRole('button', { name: 'Propose removal' })).toBeNull();
    await userEvent.click(within(rows[0]!).getByRole('button', { name: 'Propose removal' }));
    await waitFor(() =>
      expect(fake.calls.addressBookRemove).toEqual([
        { currency: 'USDT', chain: 'TRX', address: 'TQn9Y2khEsLJW1ChVWFMSMeRDow5KcbLSE', added_at: 1_700_000_000_000 },
      ]),
    );
    expect((await screen.findByTestId('asked')).textContent).toMatch(/Remove TQn9Y2khEsLJW1ChVWFMSMeRDow5KcbLSE/);
  });

  it('shows an expired request with who had signed, and offers no approval', async () => {
    const expired: ApprovalItem = { ...WAITING, state: 'expired', approved_by: ['Alice'] };
    renderWithDesk(fakeDesk({ ...baseAnswers(), approvalsState: { ...APPROVALS, items: [expired] } }), <ApprovalsPage />, {
      at: '/approvals',
    });
    const row = await screen.findByTestId('approval-item');
    expect(within(row).getByTestId('item-state').textContent).toMatch(/^expired .+, unapproved: never sent\. Draft it again/);
    expect(row.textContent).toContain('Alice');
    expect(within(row).queryByRole('button', { name: 'Approve' })).toBeNull();
  });

  it('says how many operators the desk could lose before the policy in force wedges it', async () => {
    const three = { strictest: 'rule two-others', needs: 3, signers: 4, margin: 1, able: ['Alice', 'Bob', 'Carol', 'Dan'] };
    renderWithDesk(fakeDesk({ ...baseAnswers(), approvalsState: { ...APPROVALS, resilience: three } }), <ApprovalsPage />, {
      at: '/approvals',
    });
    expect((await screen.findByTestId('resilience')).textContent).toBe(
      'The strictest requirement, rule two-others, needs 3 distinct operators; 4 can meet it (Alice, Bob, Carol, Dan). Losing any 2 of them would wedge it: nothing it governs could be sent and no change could repair it.',
    );
  });

  it('says nothing of the variable where the wait is the desk’s own', async () => {
    renderWithDesk(fakeDesk({ ...baseAnswers(), approvalsState: APPROVALS }), <ApprovalsPage />, { at: '/approvals' });
    expect((await screen.findByText(/take effect 24/)).textContent).toMatch(/24/);
    expect(screen.queryByTestId('cooling-off-variable')).toBeNull();
  });

  it('offers the unfreeze and every withdrawal still cancellable once the desk is frozen', async () => {
    const fake = fakeDesk({
      ...baseAnswers(),
      approvalsState: { ...APPROVALS, frozen: { by: 'Alice', at: 1_700_000_000_000, reason: '' } },
      withdrawalsCancellable: [
        {
          intent: 'i-1',
          exchange_id: 'w7',
          currency: 'USDT',
          amount: '10',
          address: 'TQn9Y2khEsLJW1ChVWFMSMeRDow5KcbLSE',
          status: 'REQUEST',
        },
      ],
      withdrawalsCancel: (r) => r.exchange_ids.map((id) => ({ exchange_id: id, ok: true, message: 'cancellation asked' })),
      approvalsUnfreeze: { ticket: 't-2', title: 'Unfreeze the desk' },
    });
    renderWithDesk(fake, <ApprovalsPage />, { at: '/approvals' });
    const cancellable = await screen.findByRole('region', { name: 'Cancellable withdrawals' });
    await userEvent.click(within(cancellable).getByRole('button', { name: 'Cancel all 1' }));
    await waitFor(() => expect(fake.calls.withdrawalsCancel).toEqual([{ exchange_ids: ['w7'] }]));
    await userEvent.click(screen.getByRole('button', { name: 'Propose to unfreeze' }));
    expect((await screen.findByTestId('asked')).textContent).toContain('Unfreeze the desk');
  });
});
