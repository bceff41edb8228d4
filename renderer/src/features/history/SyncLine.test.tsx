import { screen, waitFor } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import type { ChannelResponse } from '../../../../shared/ipc.ts';
import { fakeDesk } from '../../testkit/fakeDesk.ts';
import { baseAnswers } from '../../testkit/fixtures.ts';
import { renderWithDesk } from '../../testkit/renderPage.tsx';
import { SyncLine } from './SyncLine.tsx';

const STATUS = baseAnswers().historyStatus as ChannelResponse<'historyStatus'>;

describe('the history lists say how old they are', () => {
  it('names the time read up to and its age in words, and says when newer records are being read', async () => {
    const hourAgo = Math.floor(Date.now() / 1000) - 3600 - 30;
    const fake = fakeDesk({ ...baseAnswers(), historyStatus: { ...STATUS, synced_to: hourAgo, syncing: true } });
    renderWithDesk(fake, <SyncLine />);
    await waitFor(() => expect(screen.getByTestId('history-age').textContent).toContain('(1 hour ago)'));
    expect(screen.getByTestId('history-age').textContent).toContain(new Date(hourAgo * 1000).toISOString().slice(0, 16).replace('T', ' '));
    expect(screen.getByTestId('history-age').textContent).toContain('reading what is new');
  });

  it('says so before the first read', async () => {
    renderWithDesk(fakeDesk({ ...baseAnswers(), historyStatus: STATUS }), <SyncLine />);
    await waitFor(() => expect(screen.getByTestId('history-age').textContent).toContain('first read in progress'));
  });
});
