import { readSandboxCredentials } from '../electron/core/profiles/sandbox.ts';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addToBook, ensureOperator, TEST_OPERATOR } from '../electron/core/approvals/testkit/governed.ts';
import { launchBrowser, startDesk, type DeskUnderTest } from './harness.ts';
import { sandboxGet } from './sandboxApi.ts';

// A withdrawal signed by its operator while the exchange drops the connection after committing it:
// the Activity page shows "unconfirmed", never a second send, then the desk finds it.

describe('Activity: approving a withdrawal through a dropped connection', () => {
  let desk: DeskUnderTest;
  let browser: Browser;
  let page: Page;
  let admin: { url: string; token: string };

  beforeAll(async () => {
    desk = await startDesk({ coolingOffMs: 0 });
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

  it('shows the write unconfirmed, then accepted, and it lands once', async () => {
    const fault = (spec: object) =>
      fetch(`${admin.url}/faults`, {
        method: 'POST',
        headers: { Authorization: `Bearer ${admin.token}`, 'Content-Type': 'application/json' },
        body: JSON.stringify(spec),
      });
    // The desk opens and settles first: its journal's reconciliation and the history's first sync start
    // once the window has painted its first figures (electron/core/startUp.ts), and read withdrawals.
    await page.goto(desk.host.url);
    await page.getByTestId('total-amount').waitFor();
    await page.getByRole('link', { name: 'Activity' }).click();
    await expect
      .poll(
        async () => ((await desk.core.invoke('historyStatus', {})) as { ok: true; data: { synced_to: number | null } }).data.synced_to,
        {
          timeout: 20_000,
        },
      )
      .not.toBeNull();

    // The withdrawal commits, then the connection drops; every read of withdrawals is slow, so the
    // unconfirmed state lasts long enough for anyone (and this test) to see it. Every read, not the next
    // one: the history's own sync may read withdrawals before the desk's lookup does.
    expect((await fault({ kind: 'drop', path: '/withdrawals', method: 'POST', times: 1 })).ok).toBe(true);
    expect((await fault({ kind: 'latency', latency_ms: 3000, path: '/wallet/withdrawals', method: 'GET' })).ok).toBe(true);

    // Every state the row shows, however briefly, as the operator would have seen it.
    // The id is the governed request's; the page records states of whatever row carries it.
    await addToBook(
      desk.core,
      { currency: 'USDT', chain: 'TRX', address: 'TXkz7nF8cq3PWy7FHLgLFGfBpzyBK5ZNvA' },
      await ensureOperator(desk.core),
    );
    const ticket = (await desk.core.invoke('approvalsDraft', {
      write: {
        kind: 'withdrawal',
        input: { currency: 'USDT', chain: 'TRX', address: 'TXkz7nF8cq3PWy7FHLgLFGfBpzyBK5ZNvA', amount: '25.5' },
      },
    })) as { ok: true; data: { ticket: string } };
    const ref = (
      (await desk.core.invokeConfirm('confirmState', {})) as { ok: true; data: { tickets: { id: string; ref: string }[] } }
    ).data.tickets.find((t) => t.id === ticket.data.ticket)!.ref;
    const intent = { id: ref, client_id: ref };
    const row = page.locator(`[data-intent="${intent.id}"]`);
    await page.evaluate((id) => {
      const seen: string[] = [];
      (globalThis as unknown as { seenStates: string[] }).seenStates = seen;
      const doc = (
        globalThis as unknown as {
          document: { querySelector(s: string): { getAttribute(n: string): string | null } | null; body: unknown };
        }
      ).document;
      const record = () => {
        const state = doc.querySelector(`[data-intent="${id}"]`)?.getAttribute('data-state');
        if (state && seen[seen.length - 1] !== state) seen.push(state);
      };
      const Observer = (globalThis as unknown as { MutationObserver: new (fn: () => void) => { observe(n: unknown, o: object): void } })
        .MutationObserver;
      new Observer(record).observe(doc.body, { subtree: true, attributes: true, childList: true });
      record();
    }, intent.id);

    // The operator signs in the confirmation window (approvals.e2e.ts drives that page by clicks).
    const operator = await ensureOperator(desk.core);
    expect(
      (await desk.core.invokeConfirm('confirmSign', { ticket: ticket.data.ticket, operator, passphrase: TEST_OPERATOR.passphrase })).ok,
    ).toBe(true);
    await expect.poll(() => row.getAttribute('data-state'), { timeout: 40_000 }).toBe('accepted');
    expect(await row.textContent()).toContain('25.5 USDT to TXkz7nF8cq3PWy7FHLgLFGfBpzyBK5ZNvA (TRX)');
    const seen = await page.evaluate(() => (globalThis as unknown as { seenStates: string[] }).seenStates);
    expect(seen).toContain('unconfirmed');
    expect(seen[seen.length - 1]).toBe('accepted');

    const records = await sandboxGet<unknown[]>(
      desk.sandbox.credentialsPath,
      '/wallet/withdrawals',
      `withdraw_order_id=${intent.client_id}`,
    );
    expect(records).toHaveLength(1);
  });
});
