import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import type { ChannelRequest } from '../../../../shared/ipc.ts';
import type { AuditEntry } from '../../../../shared/journal.ts';
import { fakeDesk } from '../../testkit/fakeDesk.ts';
import { baseAnswers } from '../../testkit/fixtures.ts';
import { refusal } from '../../testkit/refusal.ts';
import { renderWithDesk } from '../../testkit/renderPage.tsx';
import JournalPage from './JournalPage.tsx';

const entry = (over: Partial<AuditEntry>): AuditEntry => ({
  journal: 'profile',
  seq: 1,
  at: '2026-03-01T10:00:00.000Z',
  type: 'intent',
  intent: 'w1',
  operators: [],
  summary: '',
  mac: 'a'.repeat(64),
  ...over,
});

// Newest first, as the core answers.
const ENTRIES: AuditEntry[] = [
  entry({ seq: 4, at: '2026-03-01T10:04:00.000Z', type: 'result', summary: 'accepted (REQUEST)' }),
  entry({ seq: 3, at: '2026-03-01T10:03:00.000Z', type: 'sent', summary: 'attempt 1' }),
  entry({ journal: 'governance', seq: 2, at: '2026-03-01T10:02:00.000Z', type: 'signoff', operators: ['Bob'] }),
  entry({ seq: 2, at: '2026-03-01T10:01:00.000Z', type: 'approval', intent: 'w2', operators: ['Alice'] }),
  entry({ seq: 1, type: 'intent', summary: 'withdrawal 1.5 USDT Taddr1' }),
];

/** A core that filters by intent and type, scaled down 50 times (a page of 100 holds 2), so the page's cursor is exercised. */
function entries(q: ChannelRequest<'journalEntries'>) {
  const size = Math.ceil((q.limit ?? 100) / 50);
  const all = ENTRIES.filter((e) => (!q.intent || e.intent === q.intent) && (!q.type || e.type === q.type));
  const start = q.after ? all.findIndex((e) => e.journal === q.after!.journal && e.seq === q.after!.seq) + 1 : 0;
  const items = all.slice(start, start + size);
  const last = items.at(-1);
  return { items, next: start + size < all.length && last ? { at: last.at, journal: last.journal, seq: last.seq } : null };
}

describe('Journal page', () => {
  it('lists entries page by page, filters, follows an intent to its final status, and names the entry Verify fails on', async () => {
    const fake = fakeDesk({
      ...baseAnswers(),
      journalEntries: entries,
      journalVerify: {
        verified: false,
        journals: [
          {
            journal: 'profile',
            entries: 0,
            head_seq: 0,
            ok: false,
            entry: 3,
            reason: 'Entry 3: its MAC does not verify: it was changed after it was written.',
            missing: 0,
            torn: null,
          },
          { journal: 'governance', entries: 2, head_seq: 2, ok: true, entry: null, reason: null, missing: 0, torn: null },
        ],
      },
    });
    renderWithDesk(fake, <JournalPage />, { at: '/journal' });
    const table = await screen.findByTestId('journal-entries');
    await waitFor(() => expect(table.querySelectorAll('tr[data-entry]')).toHaveLength(2));
    await userEvent.click(screen.getByRole('button', { name: 'Older entries' }));
    await waitFor(() => expect(table.querySelectorAll('tr[data-entry]')).toHaveLength(4));
    await userEvent.click(screen.getByRole('button', { name: 'Older entries' }));
    await waitFor(() =>
      expect([...table.querySelectorAll('tr[data-entry]')].map((r) => r.getAttribute('data-entry'))).toEqual([
        'profile:4',
        'profile:3',
        'governance:2',
        'profile:2',
        'profile:1',
      ]),
    );

    await userEvent.selectOptions(screen.getByLabelText('Kind'), 'Sent');
    await userEvent.click(screen.getByRole('button', { name: 'Filter' }));
    await waitFor(() => expect(table.querySelectorAll('tr[data-entry]')).toHaveLength(1));
    expect(fake.calls.journalEntries?.at(-1)).toMatchObject({ type: 'sent' });

    await userEvent.click(within(table).getByRole('button', { name: 'Follow w1' }));
    const trail = await screen.findByTestId('intent-trail');
    expect(within(trail).getByRole('heading').textContent).toBe('Intent w1: Result accepted (REQUEST)');
    expect([...trail.querySelectorAll('li')].map((li) => li.textContent?.split(' · ')[1])).toEqual([
      'Draft (intent)',
      'Operator approval by Bob',
      'Sent',
      'Result',
    ]);

    await userEvent.click(screen.getByRole('button', { name: 'Verify' }));
    const result = await screen.findByTestId('verify-result');
    expect(result.textContent).toContain('The journal does not verify.');
    expect(within(result).getByText('entry 3')).toBeTruthy();
    expect(result.querySelector('[data-journal="governance"]')?.textContent).toContain('2 entries, every MAC and operator signature');
  });

  it('exports the signed bundle through the core and says how many entries went out', async () => {
    const fake = fakeDesk({ ...baseAnswers(), journalExport: { filename: 'journal-bundle-2026-03-01.json', text: '{}', entries: 6 } });
    URL.createObjectURL = () => 'blob:x';
    URL.revokeObjectURL = () => {};
    HTMLAnchorElement.prototype.click = () => {};
    renderWithDesk(fake, <JournalPage />, { at: '/journal' });
    await userEvent.click(await screen.findByRole('button', { name: 'Export signed bundle' }));
    expect((await screen.findByRole('status')).textContent).toBe('6 entries exported to journal-bundle-2026-03-01.json.');
    expect(fake.calls.journalExport).toEqual([{ format: 'bundle' }]);
  });

  it('exports as CSV what the filter on screen shows, and says so', async () => {
    const fake = fakeDesk({
      ...baseAnswers(),
      journalEntries: entries,
      journalExport: { filename: 'journal-2026-03-01-filtered.csv', text: 'journal,seq\n', entries: 1 },
    });
    URL.createObjectURL = () => 'blob:x';
    URL.revokeObjectURL = () => {};
    HTMLAnchorElement.prototype.click = () => {};
    renderWithDesk(fake, <JournalPage />, { at: '/journal' });
    await screen.findByTestId('journal-entries');
    await userEvent.selectOptions(screen.getByLabelText('Kind'), 'Sent');
    await userEvent.type(screen.getByLabelText('Operator'), 'bob');
    await userEvent.click(screen.getByRole('button', { name: 'Filter' }));
    await waitFor(() => expect(fake.calls.journalEntries?.at(-1)).toMatchObject({ type: 'sent', by: 'bob' }));
    await userEvent.click(screen.getByRole('button', { name: 'Export CSV (filtered)' }));
    expect((await screen.findByRole('status')).textContent).toBe(
      '1 entry matching the filter exported to journal-2026-03-01-filtered.csv.',
    );
    expect(fake.calls.journalExport).toEqual([{ format: 'csv', type: 'sent', by: 'bob' }]);
    // The signed bundle stays whole: a verifier checks every entry against the one before it.
    await userEvent.click(screen.getByRole('button', { name: 'Export signed bundle' }));
    await waitFor(() => expect(fake.calls.journalExport?.at(-1)).toEqual({ format: 'bundle' }));
  });

  it("shows each journal's bundle key fingerprint, the figure npm run verify-journal prints", async () => {
    const fake = fakeDesk({
      ...baseAnswers(),
      journalAuditKeys: [
        { journal: 'profile', id: 'sandbox', fingerprint: '0123456789abcdef' },
        { journal: 'governance', id: 'governance-sandbox', fingerprint: 'fedcba9876543210' },
      ],
    });
    renderWithDesk(fake, <JournalPage />, { at: '/journal' });
    const keys = await screen.findByTestId('audit-keys');
    expect(keys.querySelector('[data-journal="profile"]')?.textContent).toBe('0123456789abcdef');
    expect(keys.textContent).toContain('Approvals journal governance-sandbox: fedcba9876543210');
  });

  it("checks the filters by the contract's query before asking, and puts the core's refusal of one on its field", async () => {
    const fake = fakeDesk({
      ...baseAnswers(),
      journalEntries: (q) =>
        q.intent === 'no-such-write'
          ? (refusal('journalEntries', ['intent'], 'no write has this id in this profile') as never)
          : entries(q),
    });
    renderWithDesk(fake, <JournalPage />, { at: '/journal' });
    await screen.findByText('accepted (REQUEST)');
    const asked = fake.count('journalEntries');
    const operator = screen.getByLabelText('Operator');
    await userEvent.click(operator);
    await userEvent.paste('x'.repeat(65));
    await userEvent.click(screen.getByRole('button', { name: 'Filter' }));
    await waitFor(() => expect(operator.getAttribute('aria-invalid')).toBe('true'));
    expect(document.getElementById(operator.getAttribute('aria-describedby')!)!.textContent).toBe('At most 64 characters.');
    expect(fake.count('journalEntries')).toBe(asked);

    await userEvent.clear(operator);
    await userEvent.type(screen.getByLabelText('Intent'), 'no-such-write');
    await userEvent.click(screen.getByRole('button', { name: 'Filter' }));
    const intent = screen.getByLabelText('Intent');
    await waitFor(() => expect(intent.getAttribute('aria-invalid')).toBe('true'));
    expect(document.getElementById(intent.getAttribute('aria-describedby')!)!.textContent).toBe('No write has this id in this profile.');
    expect(fake.calls.journalEntries?.at(-1)).toMatchObject({ intent: 'no-such-write' });
    expect(within(screen.getByTestId('journal-entries')).queryByRole('alert')).toBeNull();
  });
});
