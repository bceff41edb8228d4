import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { DEFAULT_POLICY } from '../../../../shared/api/policy.ts';
import { fakeDesk } from '../../testkit/fakeDesk.ts';
import { baseAnswers } from '../../testkit/fixtures.ts';
import { refusal } from '../../testkit/refusal.ts';
import { renderWithDesk } from '../../testkit/renderPage.tsx';
import { PolicyEditor } from './PolicyEditor.tsx';

// The policy typed as JSON: checked by the contract's Policy before it is proposed, a problem inside it
// said on the text with where it is, whether zod or the core found it.

async function typePolicy(text: string) {
  await userEvent.click(screen.getByText('Propose a new policy'));
  const box = screen.getByLabelText('Policy');
  await userEvent.clear(box);
  await userEvent.click(box);
  await userEvent.paste(text);
  await userEvent.click(screen.getByRole('button', { name: 'Propose this policy' }));
  return box;
}
const described = (input: HTMLElement) => document.getElementById(input.getAttribute('aria-describedby') ?? '')?.textContent ?? null;

describe('Policy editor', () => {
  it("says where the contract's Policy refuses the text, and proposes nothing", async () => {
    const fake = fakeDesk({ ...baseAnswers(), approvalsProposePolicy: { ticket: 't', title: 'Change the policy' } });
    renderWithDesk(fake, <PolicyEditor current={DEFAULT_POLICY} onAsk={() => {}} />);
    const box = await typePolicy('{"rules": []}');
    await waitFor(() => expect(box.getAttribute('aria-invalid')).toBe('true'));
    expect(described(box)).toBe('At rules: at least 1 entry.');
    await userEvent.clear(box);
    await userEvent.paste('{"rules": [');
    await userEvent.click(screen.getByRole('button', { name: 'Propose this policy' }));
    await waitFor(() => expect(described(box)).toBe('The policy is not valid JSON.'));
    expect(fake.count('approvalsProposePolicy')).toBe(0);
  });

  it("puts the core's refusal of a place inside the policy on the text, saying where", async () => {
    const asked: string[] = [];
    const fake = fakeDesk({
      ...baseAnswers(),
      approvalsProposePolicy: refusal(
        'approvalsProposePolicy',
        ['policy', 'rules', 1, 'approvals'],
        'a rule needs no more approvals than there are operators (1)',
      ) as never,
    });
    renderWithDesk(fake, <PolicyEditor current={DEFAULT_POLICY} onAsk={(t) => asked.push(t)} />);
    const box = await typePolicy(JSON.stringify(DEFAULT_POLICY));
    await waitFor(() => expect(box.getAttribute('aria-invalid')).toBe('true'));
    expect(described(box)).toBe('At rules.1.approvals: A rule needs no more approvals than there are operators (1).');
    expect(fake.calls.approvalsProposePolicy).toEqual([{ policy: DEFAULT_POLICY }]);
    expect(document.querySelector('.error-panel')).toBeNull();
    expect(asked).toEqual([]);
  });
});
