import { spawnSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sendGoverned } from '../electron/core/approvals/testkit/governed.ts';
import { launchBrowser, ROOT, startDesk, type DeskUnderTest } from './harness.ts';

// The auditor's view on a real desk over the real Sandbox: a governed withdrawal followed from its
// draft to the exchange's answer, Verify passing, the bundle exported and checked by the documented
// command; then one byte of the journal changes on disk and Verify names that entry.

describe('Journal page', () => {
  let desk: DeskUnderTest;
  let browser: Browser;
  let page: Page;

  beforeAll(async () => {
    desk = await startDesk({ coolingOffMs: 0 });
    browser = await launchBrowser();
    page = await browser.newPage({ viewport: { width: 1280, height: 900 }, acceptDownloads: true });
    page.setDefaultTimeout(30_000);
  });
  afterAll(async () => {
    await browser?.close();
    await desk?.stop();
  });

  it('follows an intent, verifies, exports a bundle the command checks, and names the entry whose byte changed', async () => {
    const intent = await sendGoverned(desk.core, {
      kind: 'withdrawal',
      input: { currency: 'USDT', chain: 'TRX', address: 'TXkz7nF8cq3PWy7FHLgLFGfBpzyBK5ZNvA', amount: '31.5' },
    });
    expect(intent).toMatchObject({ state: 'accepted' });
    await page.goto(desk.host.url);
    await page.getByRole('link', { name: 'Journal' }).click();
    await page.getByRole('heading', { level: 1, name: 'Journal' }).waitFor();
    await page.locator('[data-entry="profile:1"]').waitFor();

    await page
      .getByRole('button', { name: `Follow ${intent.id}` })
      .first()
      .click();
    const trail = page.getByTestId('intent-trail');
    await expect.poll(() => trail.getByRole('heading').textContent()).toMatch(/^Intent .*: Result accepted/);
    const steps = await trail.locator('li').allTextContents();
    expect(steps[0]).toContain('Request or change drafted');
    expect(steps.some((s) => s.includes('Draft (intent)'))).toBe(true);
    expect(steps.some((s) => s.includes('Sent'))).toBe(true);

    await page.getByRole('button', { name: 'Verify', exact: true }).click();
    await expect.poll(() => page.getByTestId('verify-result').textContent()).toContain('Every entry verifies.');
    await page.getByRole('button', { name: 'Clear' }).click();
    await page.screenshot({ path: join(ROOT, 'resources', 'screenshots', 'journal-page.png'), fullPage: true });

    const [download] = await Promise.all([
      page.waitForEvent('download'),
      page.getByRole('button', { name: 'Export signed bundle' }).click(),
    ]);
    const file = join(desk.dataDir, 'bundle.json');
    await download.saveAs(file);
    const check = () => spawnSync('npm', ['run', '-s', 'verify-journal', '--', file], { cwd: ROOT, encoding: 'utf8' });
    const good = check();
    expect(good.stdout).toMatch(/^OK {3}profile journal sandbox: \d+ entries/m);
    expect(good.status).toBe(0);
    // The keys' fingerprints the page shows are the ones the command printed, journal by journal.
    for (const journal of ['profile', 'governance']) {
      const shown = await page.getByTestId('audit-keys').locator(`[data-journal="${journal}"]`).textContent();
      expect(shown).toMatch(/^[0-9a-f]{16}$/);
      expect(good.stdout).toMatch(new RegExp(`^OK {3}${journal} journal \\S+: \\d+ entries, audit key ${shown}$`, 'm'));
    }
    writeFileSync(file, readFileSync(file, 'utf8').replace('\\"amount\\":\\"31.5\\"', '\\"amount\\":\\"31.6\\"'));
    const bad = check();
    expect(bad.stdout).toMatch(/^FAIL profile journal sandbox: .* - entry 1: it was changed after the desk signed the bundle/m);
    expect(bad.status).toBe(1);

    // Someone changes one byte of the journal on disk while the desk runs: Verify reads the file, not the desk's memory.
    const path = join(desk.dataDir, 'home', 'journals', 'sandbox.jsonl');
    const lines = readFileSync(path, 'utf8');
    const changed = lines.split('\n').findIndex((l) => l.includes('"type":"sent"')) + 1;
    expect(changed).toBeGreaterThan(1);
    writeFileSync(path, lines.replace('"attempt":1', '"attempt":2'));
    await page.getByRole('button', { name: 'Verify', exact: true }).click();
    const result = page.getByTestId('verify-result');
    await expect.poll(() => result.textContent()).toContain('The journal does not verify.');
    expect(await result.locator('[data-journal="profile"]').textContent()).toContain(
      `fails at entry ${changed}. Entry ${changed}: its MAC does not verify`,
    );
  });
});
