import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { DEFAULT_POLICY, type Policy } from '../../../../shared/api/policy.ts';
import { fakeDesk } from '../../testkit/fakeDesk.ts';
import { baseAnswers } from '../../testkit/fixtures.ts';
import { refusal } from '../../testkit/refusal.ts';
import { renderWithDesk } from '../../testkit/renderPage.tsx';
import { PolicyEditor } from './PolicyEditor.tsx';

// The policy as rows of a form: each rule's fields, its sentence, its place in the order; checked by the
// contract's Policy with every problem on the field it names, whether zod or the core found it; the JSON
// kept as an export and an import checked the same way.

const DEFAULT_SENTENCES = [
  'Order cancellations or cancellations of all orders of a pair are allowed without approval.',
  'Withdrawals or UID transfers to an unknown destination are blocked.',
  'Every other write needs 1 approval, which the drafter may give.',
];

function setup(current: Policy = DEFAULT_POLICY, preview?: (p: Policy) => React.ReactNode) {
  const fake = fakeDesk({ ...baseAnswers(), approvalsProposePolicy: { ticket: 't', title: 'Change the policy' } });
  const asked: string[] = [];
  renderWithDesk(fake, <PolicyEditor current={current} onAsk={(t) => asked.push(t)} preview={preview} />);
  return { fake, asked };
}
const open = () => userEvent.click(screen.getByText('Propose a new policy'));
const rows = () => screen.getAllByTestId('policy-rule');
const row = (i: number) => within(rows()[i]!);
const sentences = () => screen.getAllByTestId('rule-sentence').map((p) => p.textContent);
const propose = () => userEvent.click(screen.getByRole('button', { name: 'Propose this policy' }));
const described = (input: HTMLElement) =>
  (input.getAttribute('aria-describedby') ?? '')
    .split(' ')
    .map((id) => document.getElementById(id)?.textContent ?? '')
    .join(' ')
    .trim() || null;
const proposed = (fake: ReturnType<typeof setup>['fake']) => (fake.calls.approvalsProposePolicy as { policy: Policy }[]).at(-1)!.policy;

async function retype(input: HTMLElement, text: string) {
  await userEvent.clear(input);
  if (text) await userEvent.type(input, text);
}

describe('Policy editor', () => {
  it('shows the policy in force as rows, each saying what it does, and proposes it as it stands', async () => {
    const { fake, asked } = setup();
    await open();
    expect(rows()).toHaveLength(3);
    expect(sentences()).toEqual(DEFAULT_SENTENCES);
    expect(screen.getByText(/the first rule that matches a write decides it/)).toBeTruthy();
    expect((row(0).getByLabelText('Id') as HTMLInputElement).value).toBe('cancels-free');
    expect((row(1).getByLabelText('Withdrawals') as HTMLInputElement).checked).toBe(true);
    expect((row(1).getByLabelText('An unknown destination') as HTMLInputElement).checked).toBe(true);
    expect((screen.getByLabelText('Requests expire after (hours)') as HTMLInputElement).value).toBe('72');
    await propose();
    await waitFor(() => expect(asked).toEqual(['Change the policy']));
    expect(fake.calls.approvalsProposePolicy).toEqual([{ policy: { ...DEFAULT_POLICY, request_expiry_hours: 72 } }]);
  });

  it('builds a rule from every field of a row, its sentence following the fields', async () => {
    const { fake } = setup();
    await open();
    await userEvent.click(screen.getByRole('button', { name: 'Add rule' }));
    expect(rows()).toHaveLength(4);
    const r = row(3);
    await userEvent.type(r.getByLabelText('Id'), 'big-outflow');
    await userEvent.click(r.getByLabelText('Withdrawals'));
    await userEvent.click(r.getByLabelText('UID transfers'));
    await userEvent.type(r.getByLabelText('Currencies (comma-separated; empty: any)'), 'BTC, ETH');
    await userEvent.type(r.getByLabelText('Amount at least (own currency)'), '2.5');
    await userEvent.type(r.getByLabelText('USDT value at least'), '100000');
    await userEvent.click(r.getByLabelText("An address in the desk's address book"));
    await userEvent.type(r.getByLabelText('24-hour outflow at least'), '10');
    await retype(r.getByLabelText('Approvals'), '3');
    await userEvent.click(r.getByLabelText('The drafter may approve'));
    expect(sentences()[3]).toBe(
      'Withdrawals or UID transfers of BTC or ETH of at least 2.5 worth at least 100,000 USDT to an address in the ' +
        "desk's address book when they bring their currency's 24-hour outflow to at least 10 need 3 approvals, one of which the drafter may give.",
    );
    await retype(screen.getByLabelText('Requests expire after (hours)'), '24');
    await propose();
    await waitFor(() => expect(fake.count('approvalsProposePolicy')).toBe(1));
    expect(proposed(fake)).toEqual({
      rules: [
        ...DEFAULT_POLICY.rules,
        {
          id: 'big-outflow',
          match: {
            kinds: ['withdrawal', 'uid_transfer'],
            currencies: ['BTC', 'ETH'],
            amount_at_least: '2.5',
            usdt_at_least: '100000',
            destinations: ['address_book'],
            velocity_24h_at_least: '10',
          },
          action: 'require',
          approvals: 3,
          drafter_may_approve: true,
        },
      ],
      request_expiry_hours: 24,
    });
  });

  it('says and sends allow and block; approvals only belong to a rule that requires them', async () => {
    const { fake } = setup();
    await open();
    await userEvent.selectOptions(row(2).getByLabelText('Action'), 'block');
    expect(row(2).queryByLabelText('Approvals')).toBeNull();
    expect(sentences()[2]).toBe('Every other write is blocked.');
    await userEvent.selectOptions(row(1).getByLabelText('Action'), 'allow');
    expect(sentences()[1]).toBe('Withdrawals or UID transfers to an unknown destination are allowed without approval.');
    await propose();
    await waitFor(() => expect(fake.count('approvalsProposePolicy')).toBe(1));
    expect(proposed(fake).rules.slice(1)).toEqual([
      { id: 'unknown-destination', match: { kinds: ['withdrawal', 'uid_transfer'], destinations: ['unknown'] }, action: 'allow' },
      { id: 'confirm-every-write', match: {}, action: 'block' },
    ]);
  });

  it('reorders rules by buttons named for the rule, and the proposal keeps the new order', async () => {
    const { fake } = setup();
    await open();
    expect((screen.getByRole('button', { name: 'Move rule cancels-free up' }) as HTMLButtonElement).disabled).toBe(true);
    expect((screen.getByRole('button', { name: 'Move rule confirm-every-write down' }) as HTMLButtonElement).disabled).toBe(true);
    await userEvent.click(screen.getByRole('button', { name: 'Move rule confirm-every-write up' }));
    await userEvent.click(screen.getByRole('button', { name: 'Move rule cancels-free down' }));
    // The catch-all is now second: it no longer reads "every other" only when it comes first.
    await userEvent.click(screen.getByRole('button', { name: 'Move rule confirm-every-write up' }));
    expect(sentences()).toEqual(['Every write needs 1 approval, which the drafter may give.', DEFAULT_SENTENCES[0], DEFAULT_SENTENCES[1]]);
    await propose();
    await waitFor(() => expect(fake.count('approvalsProposePolicy')).toBe(1));
    expect(proposed(fake).rules.map((r) => r.id)).toEqual(['confirm-every-write', 'cancels-free', 'unknown-destination']);
  });

  it('adds and removes rules; a policy without rules is refused on the list', async () => {
    const { fake } = setup();
    await open();
    await userEvent.click(screen.getByRole('button', { name: 'Remove rule unknown-destination' }));
    expect(sentences()).toEqual([DEFAULT_SENTENCES[0], DEFAULT_SENTENCES[2]]);
    await userEvent.click(screen.getByRole('button', { name: 'Remove rule cancels-free' }));
    await userEvent.click(screen.getByRole('button', { name: 'Remove rule confirm-every-write' }));
    expect(screen.queryAllByTestId('policy-rule')).toHaveLength(0);
    await propose();
    await screen.findByText('A policy has at least one rule.');
    expect(fake.count('approvalsProposePolicy')).toBe(0);
    await userEvent.click(screen.getByRole('button', { name: 'Add rule' }));
    await userEvent.type(row(0).getByLabelText('Id'), 'only');
    await propose();
    await waitFor(() => expect(fake.count('approvalsProposePolicy')).toBe(1));
    expect(proposed(fake).rules).toEqual([{ id: 'only', match: {}, action: 'require', approvals: 1 }]);
  });

  it("ties each problem to its row's field and proposes nothing", async () => {
    const { fake } = setup();
    await open();
    const approvals = row(2).getByLabelText('Approvals');
    await userEvent.clear(approvals);
    const amount = row(1).getByLabelText('Amount at least (own currency)');
    await userEvent.type(amount, '10k');
    const id = row(1).getByLabelText('Id');
    await retype(id, 'cancels-free');
    const hours = screen.getByLabelText('Requests expire after (hours)');
    await retype(hours, '1000');
    expect(row(2).getByTestId('rule-sentence').textContent).toBe('Complete this rule to read it in words.');
    await propose();
    await waitFor(() => expect(approvals.getAttribute('aria-invalid')).toBe('true'));
    expect(described(approvals)).toBe('A "require" rule says how many approvals.');
    expect(amount.getAttribute('aria-invalid')).toBe('true');
    expect(described(amount)).toBe('A threshold is a plain decimal number such as 10000 (at most 8 decimals).');
    expect(described(id)).toBe('Rule 1 has this id already: each rule needs its own.');
    expect(described(hours)).toBe('At most 720.');
    // Nothing else is marked: the first row is fine.
    expect(
      within(rows()[0]!)
        .queryAllByRole('textbox')
        .filter((i) => i.getAttribute('aria-invalid')),
    ).toEqual([]);
    await retype(approvals, 'two');
    await propose();
    await waitFor(() => expect(described(approvals)).toBe('Approvals are a whole number such as 2.'));
    expect(fake.count('approvalsProposePolicy')).toBe(0);
  });

  it('exports the candidate as JSON and hands it to the preview only while the rows make a policy', async () => {
    setup(DEFAULT_POLICY, (p) => <p data-testid="preview">{p.rules.length} rules</p>);
    await open();
    await userEvent.click(screen.getByText('As JSON: export and import'));
    expect(JSON.parse((screen.getByLabelText('Policy as JSON') as HTMLTextAreaElement).value)).toEqual({
      ...DEFAULT_POLICY,
      request_expiry_hours: 72,
    });
    expect(screen.getByTestId('preview').textContent).toBe('3 rules');
    await userEvent.click(screen.getByRole('button', { name: 'Remove rule cancels-free' }));
    expect(screen.getByTestId('preview').textContent).toBe('2 rules');
    await userEvent.clear(row(1).getByLabelText('Approvals'));
    expect(screen.queryByTestId('preview')).toBeNull();
    expect(screen.queryByLabelText('Policy as JSON')).toBeNull();
  });

  it('loads JSON into the rows, or says where it is refused and keeps the rows', async () => {
    const { fake } = setup();
    await open();
    await userEvent.click(screen.getByText('As JSON: export and import'));
    const box = screen.getByLabelText('Policy JSON to load');
    const load = async (text: string) => {
      await userEvent.clear(box);
      await userEvent.click(box);
      await userEvent.paste(text);
      await userEvent.click(screen.getByRole('button', { name: 'Load into the editor' }));
    };
    await load('{"rules": [');
    expect(described(box)).toBe('The text is not valid JSON.');
    const twoApprovals = {
      rules: [
        { id: 'unknown-destination', match: { kinds: ['withdrawal'], destinations: ['unknown'] }, action: 'block' },
        { id: 'two-other-operators', match: { kinds: ['withdrawal'] }, action: 'require' },
      ],
    };
    await load(JSON.stringify(twoApprovals));
    expect(described(box)).toBe('In rule 2 (two-other-operators), approvals: a "require" rule says how many approvals.');
    await load(JSON.stringify({ rules: [{ id: 'x', match: { amount_at_least: 'lots' }, action: 'block' }] }));
    expect(described(box)).toBe(
      'In rule 1 (x), amount at least: a threshold is a plain decimal number such as 10000 (at most 8 decimals).',
    );
    await load(
      JSON.stringify({
        rules: [
          { id: 'x', match: {}, action: 'block' },
          { id: 'x', match: {}, action: 'allow' },
        ],
      }),
    );
    expect(described(box)).toBe('In rule 2 (x), id: rule 1 has this id already: each rule needs its own.');
    expect(sentences()).toEqual(DEFAULT_SENTENCES);

    twoApprovals.rules[1] = { ...twoApprovals.rules[1]!, approvals: 2 } as never;
    await load(JSON.stringify({ ...twoApprovals, request_expiry_hours: 12 }));
    expect(box.getAttribute('aria-invalid')).toBeNull();
    expect(sentences()).toEqual([
      'Withdrawals to an unknown destination are blocked.',
      'Withdrawals need 2 approvals, not by the drafter.',
    ]);
    expect((screen.getByLabelText('Requests expire after (hours)') as HTMLInputElement).value).toBe('12');
    await propose();
    await waitFor(() => expect(fake.count('approvalsProposePolicy')).toBe(1));
    expect(proposed(fake)).toEqual({ ...twoApprovals, request_expiry_hours: 12 });
  });

  it("puts the core's refusal of a place inside the policy on that row's field", async () => {
    const fake = fakeDesk({
      ...baseAnswers(),
      approvalsProposePolicy: (req) =>
        req.policy.rules.length === 3
          ? (refusal(
              'approvalsProposePolicy',
              ['policy', 'rules', 2, 'approvals'],
              'a rule needs no more approvals than there are operators (1)',
            ) as never)
          : (refusal('approvalsProposePolicy', ['policy', 'rules', 0, 'match', 'kinds', 1], 'this kind cannot be allowed') as never),
    });
    const asked: string[] = [];
    renderWithDesk(fake, <PolicyEditor current={DEFAULT_POLICY} onAsk={(t) => asked.push(t)} />);
    await open();
    await propose();
    const approvals = row(2).getByLabelText('Approvals');
    await waitFor(() => expect(approvals.getAttribute('aria-invalid')).toBe('true'));
    expect(described(approvals)).toBe('A rule needs no more approvals than there are operators (1).');
    expect(document.querySelector('.error-panel')).toBeNull();

    await userEvent.click(screen.getByRole('button', { name: 'Remove rule unknown-destination' }));
    await propose();
    const kinds = row(0).getByRole('group', { name: 'Kinds (none ticked: any)' });
    await waitFor(() => expect(kinds.getAttribute('aria-invalid')).toBe('true'));
    expect(described(kinds)).toBe('This kind cannot be allowed.');
    expect(document.querySelector('.error-panel')).toBeNull();
    expect(asked).toEqual([]);
  });

  it('says beside a rule asking two approvals that changes will need two admins, before anything is proposed', async () => {
    const fake = fakeDesk({ ...baseAnswers(), approvalsProposePolicy: { ticket: 't', title: 'Change the policy' } });
    renderWithDesk(fake, <PolicyEditor current={DEFAULT_POLICY} onAsk={() => {}} changeQuorumNow={1} />);
    await open();
    expect(screen.queryByTestId('rule-change-quorum')).toBeNull();
    expect(screen.getByTestId('change-quorum').textContent).toMatch(/changes need 1 admin's approval: the most any rule asks/);

    await retype(row(2).getByLabelText('Approvals'), '2');
    expect(row(2).getByTestId('rule-change-quorum').textContent).toBe(
      "This rule needs 2 approvals, so operator, role and policy changes will need 2 admins' approvals too under this policy (now 1).",
    );
    expect(row(1).queryByTestId('rule-change-quorum')).toBeNull();
    expect(screen.getByTestId('change-quorum').textContent).toMatch(/changes need 2 admins' approvals \(now 1\)/);
    expect(fake.count('approvalsProposePolicy')).toBe(0);
  });
});
