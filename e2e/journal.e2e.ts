import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDesk } from '../electron/core/desk.ts';
import { startWebHost, type WebHost } from '../electron/host/web.ts';
import type { Core } from '../electron/core/core.ts';
import { sendGoverned } from '../electron/core/approvals/testkit/governed.ts';
import { launchBrowser, ROOT, startDesk, type DeskUnderTest } from './harness.ts';
import { sandboxGet } from './sandboxApi.ts';

// Someone changed one byte of the journal while the desk was closed. The operator opens the desk: the
// Activity page says what is wrong and that nothing will be sent; archiving it brings the unfinished
// withdrawal over as "Needs your attention", and the exchange never sees it twice.

describe('Activity: a journal that fails verification', () => {
  let desk: DeskUnderTest;
  let browser: Browser;
  let page: Page;
  let core: Core | null = null;
  let host: WebHost | null = null;

  beforeAll(async () => {
    desk = await startDesk({ coolingOffMs: 0 });
    browser = await launchBrowser();
    page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
    page.setDefaultTimeout(30_000);
  });
  afterAll(async () => {
    await browser?.close();
    await host?.close();
    await core?.close();
    await desk?.stop();
  });

  it('names the changed entry, stops writes, and archives to a new journal without sending anything', async () => {
    // Drafted and signed by an operator, as the confirmation window would (approvals.e2e.ts drives that page).
    const intent = await sendGoverned(desk.core, {
      kind: 'withdrawal',
      input: { currency: 'USDT', chain: 'TRX', address: 'TXkz7nF8cq3PWy7FHLgLFGfBpzyBK5ZNvA', amount: '31.5' },
    });
    expect(intent).toMatchObject({ state: 'accepted' });
    // The desk closes; someone edits the amount in the journal on disk.
    await desk.host.close();
    await desk.core.close();
    const home = join(desk.dataDir, 'home');
    const path = join(home, 'journals', 'sandbox.jsonl');
    writeFileSync(path, readFileSync(path, 'utf8').replace('"amount":"31.5"', '"amount":"81.5"'));

    core = openDesk({ home, sandboxCredentialsPath: desk.sandbox.credentialsPath, log: () => {} });
    host = await startWebHost({ core, staticDir: join(ROOT, 'dist', 'renderer') });
    await page.goto(host.url);
    await page.getByRole('link', { name: 'Activity' }).click();
    const alert = page.getByRole('alert').filter({ hasText: 'failed verification' });
    await expect.poll(() => alert.textContent()).toContain('Entry 1: its MAC does not verify');
    expect(await alert.textContent()).toContain('nothing will be sent');
    await page.screenshot({ path: join(ROOT, 'resources', 'screenshots', 'journal-damaged.png') });

    await alert.getByRole('button', { name: 'Archive it and start a new journal…' }).click();
    await page
      .getByRole('alertdialog', { name: 'Confirm archiving the journal' })
      .getByRole('button', { name: 'Archive and start a new journal' })
      .click();
    await expect.poll(() => page.getByRole('status').first().textContent()).toContain('1 unfinished write was carried over');
    const row = page.locator(`[data-intent="${intent.id}"]`);
    await expect.poll(() => row.getAttribute('data-state')).toBe('needs_attention');

    const records = await sandboxGet<unknown[]>(
      desk.sandbox.credentialsPath,
      '/wallet/withdrawals',
      `withdraw_order_id=${intent.client_id}`,
    );
    expect(records).toHaveLength(1);
  });
});
