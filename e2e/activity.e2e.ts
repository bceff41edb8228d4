import { readSandboxCredentials } from '../electron/core/profiles/sandbox.ts';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchBrowser, startDesk, type DeskUnderTest } from './harness.ts';
import { sandboxGet } from './sandboxApi.ts';

// A withdrawal awaiting approval, approved by a click while the exchange drops the connection after
// committing it: the operator sees "unconfirmed", never a second send, then the desk finds it.

describe('Activity: approving a withdrawal through a dropped connection', () => {
  let desk: DeskUnderTest;
  let browser: Browser;
  let page: Page;
  let admin: { url: string; token: string };

  beforeAll(async () => {
    desk = await startDesk();
    browser = await launchBrowser();
    page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
    page.setDefaultTimeout(30_000);
    const creds = readSandboxCredentials(desk.sandbox.credentialsPath);
    admin = { url: creds.admin_url, token: creds.admin_token };
  });
  afterAll(async () => {
    await browser?.close();
    await desk?.stop();
  });

  it('shows the write for review, then unconfirmed, then accepted, and it lands once', async () => {
    // The withdrawal form arrives with a later issue; the core is handed the write as the form would.
    const prepared = await desk.core.invoke('writePrepare', {
      write: { kind: 'withdrawal', input: { currency: 'USDT', chain: 'TRX', address: 'TXkz7nF8cq3PWy7FHLgLFGfBpzyBK5ZNvA', amount: '25.5' } },
    });
    expect(prepared.ok).toBe(true);
    const intent = (prepared as { data: { id: string; client_id: string } }).data;

    const fault = (spec: object) => fetch(`${admin.url}/faults`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${admin.token}`, 'Content-Type': 'application/json' },
      body: JSON.stringify(spec),
    });
    // The withdrawal commits, then the connection drops; the first lookup of its id is slow, so the
    // unconfirmed state lasts long enough for anyone (and this test) to see it.
    expect((await fault({ kind: 'drop', path: '/withdrawals', method: 'POST', times: 1 })).ok).toBe(true);
    expect((await fault({ kind: 'latency', latency_ms: 4000, path: '/wallet/withdrawals', method: 'GET', times: 1 })).ok).toBe(true);

    await page.goto(desk.host.url);
    await page.getByRole('link', { name: 'Activity' }).click();
    const row = page.locator(`[data-intent="${intent.id}"]`);
    await expect.poll(() => row.textContent()).toContain('Awaiting your approval');
    expect(await row.textContent()).toContain('25.5 USDT to TXkz7nF8cq3PWy7FHLgLFGfBpzyBK5ZNvA (TRX)');

    // Every state the row shows, however briefly, as the operator would have seen it.
    await page.evaluate((id) => {
      const seen: string[] = [];
      (globalThis as unknown as { seenStates: string[] }).seenStates = seen;
      const doc = (globalThis as unknown as { document: { querySelector(s: string): { getAttribute(n: string): string | null } | null; body: unknown } }).document;
      const record = () => {
        const state = doc.querySelector(`[data-intent="${id}"]`)?.getAttribute('data-state');
        if (state && seen[seen.length - 1] !== state) seen.push(state);
      };
      const Observer = (globalThis as unknown as { MutationObserver: new (fn: () => void) => { observe(n: unknown, o: object): void } }).MutationObserver;
      new Observer(record).observe(doc.body, { subtree: true, attributes: true, childList: true });
      record();
    }, intent.id);

    await row.getByRole('button', { name: 'Approve and send' }).click();
    await expect.poll(() => row.getAttribute('data-state'), { timeout: 40_000 }).toBe('accepted');
    const seen = await page.evaluate(() => (globalThis as unknown as { seenStates: string[] }).seenStates);
    expect(seen[0]).toBe('pending_approval');
    expect(seen).toContain('unconfirmed');
    expect(seen[seen.length - 1]).toBe('accepted');

    const records = await sandboxGet<unknown[]>(desk.sandbox.credentialsPath, '/wallet/withdrawals', `withdraw_order_id=${intent.client_id}`);
    expect(records).toHaveLength(1);
  });
});
