import { act, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import type { Notice, Notices } from '../../../../shared/notices.ts';
import { fakeDesk } from '../../testkit/fakeDesk.ts';
import { baseAnswers } from '../../testkit/fixtures.ts';
import { renderWithDesk } from '../../testkit/renderPage.tsx';
import { NoticeTray } from './NoticeTray.tsx';

// docs/histories.md §Notifications and notices: an in-app notice always, kept until read. The core keeps the notices; a `notify`
// event makes the tray read them again, and "Mark all read" asks the core to mark them.

describe('the notice tray', () => {
  it('counts what the core tells, lists it, and marks it read', async () => {
    let items: Notice[] = [];
    const view = (): Notices => ({ unread: items.filter((n) => !n.read).length, items });
    const fake = fakeDesk({
      ...baseAnswers(),
      noticesList: () => view(),
      noticesRead: () => {
        items = items.map((n) => ({ ...n, read: true }));
        return view();
      },
    });
    renderWithDesk(fake, <NoticeTray />);
    const button = await screen.findByRole('button', { name: 'Notices' });
    items = [
      {
        id: 1,
        at: 1_700_000_000_000,
        title: "This desk's withdrawal w374: DONE",
        body: 'Completed: 250 USDT to TJRab',
        tag: 'withdrawals:w374',
        read: false,
      },
    ];
    act(() => fake.emit('notify', { title: items[0]!.title, body: items[0]!.body, tag: items[0]!.tag }));
    await waitFor(() => expect(button.textContent).toBe('Notices (1 unread)'));
    await userEvent.click(button);
    const dialog = await screen.findByRole('dialog', { name: 'Notices' });
    expect(within(dialog).getByTestId('notice-list').textContent).toContain("This desk's withdrawal w374: DONE new");
    await userEvent.click(within(dialog).getByRole('button', { name: 'Mark all read' }));
    await waitFor(() => expect(fake.count('noticesRead')).toBe(1));
    await waitFor(() => expect(screen.getAllByRole('button', { name: /^Notices/ })[0]!.textContent).toBe('Notices'));
  });
});
