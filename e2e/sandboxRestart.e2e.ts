import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readSandboxCredentials } from '../electron/core/profiles/sandbox.ts';
import type { SandboxCredentials } from '../shared/sandbox.ts';
import { launchBrowser, startDesk, type DeskUnderTest } from './harness.ts';
import { sandboxGet } from './sandboxApi.ts';

// The Sandbox process dies under an open page: the desk restarts it on the same port and data, the
// status bar says so, and the page shows the Sandbox's figures as they are after the restart.

type Total = { total: { amount: string; currency: string } };

describe('a supervised Sandbox', () => {
  let desk: DeskUnderTest;
  let browser: Browser;
  let page: Page;
  let creds: SandboxCredentials;

  beforeAll(async () => {
    desk = await startDesk();
    browser = await launchBrowser();
    page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
    page.setDefaultTimeout(30_000);
    creds = readSandboxCredentials(desk.sandbox.credentialsPath);
  });
  afterAll(async () => {
    await browser?.close();
    await desk?.stop();
  });

  it('restarts it when killed, says "Sandbox restarted", and shows fresh figures', async () => {
    await page.goto(desk.host.url);
    const amount = page.getByTestId('total-amount');
    await amount.waitFor();
    const before = (await amount.textContent())!;

    // Money arrives at the exchange; the page has not asked since, so it still shows the old total.
    const deposit = await fetch(`${creds.admin_url}/deposits`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${creds.admin_token}`, 'Content-Type': 'application/json' },
      body: JSON.stringify({ uid: creds.main.uid, currency: 'USDT', amount: '1000', chain: 'TRX' }),
    });
    expect(deposit.ok).toBe(true);
    expect(await amount.textContent()).toBe(before);

    const first = desk.sandbox.current();
    expect(first.kill('SIGKILL')).toBe(true);
    const connection = page.getByTestId('connection');
    await expect.poll(() => connection.textContent(), { timeout: 30_000 }).toContain('Sandbox restarted');
    expect(desk.sandbox.current().pid).not.toBe(first.pid);
    expect(desk.sandbox.restarts()).toBe(1);

    // Same port and data: the Sandbox's own total includes the deposit, and the page shows exactly it.
    const after = await sandboxGet<Total>(desk.sandbox.credentialsPath, '/wallet/total_balance', 'currency=USDT');
    await expect.poll(async () => (await amount.textContent())!.replaceAll(',', ''), { timeout: 30_000 }).toBe(after.total.amount);
    expect(await amount.textContent()).not.toBe(before);
    expect(await connection.textContent()).toMatch(/^The Sandbox answered \d+ s ago · Sandbox restarted \d+ s ago$/);
  });
});
