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

  it('says "outcome not known yet", with its time left, while an exchange slower than the deadline holds the send', async () => {
    // A second desk with a short deadline and settle window, so the doubt lasts seconds, not 105 s.
    const slow = await startDesk({ coolingOffMs: 0, writes: { requestTimeoutMs: 2_000, settleMs: 6_000 } });
    const tab = await browser.newPage({ viewport: { width: 1024, height: 800 } });
    try {
      const creds = readSandboxCredentials(slow.sandbox.credentialsPath);
      await tab.goto(slow.host.url);
      await tab.getByTestId('total-amount').waitFor();
      await tab.getByRole('link', { name: 'Activity' }).click();
      // The Sandbox holds the POST past the desk's deadline and commits it 5 s after it arrived.
      const held = await fetch(`${creds.admin_url}/faults`, {
        method: 'POST',
        headers: { Authorization: `Bearer ${creds.admin_token}`, 'Content-Type': 'application/json' },
        body: JSON.stringify({ kind: 'latency', latency_ms: 5_000, path: '/withdrawals', method: 'POST', times: 1 }),
      });
      expect(held.ok).toBe(true);
      const address = 'TXkz7nF8cq3PWy7FHLgLFGfBpzyBK5ZNvA';
      const operator = await ensureOperator(slow.core);
      await addToBook(slow.core, { currency: 'USDT', chain: 'TRX', address }, operator);
      const ticket = (await slow.core.invoke('approvalsDraft', {
        write: { kind: 'withdrawal', input: { currency: 'USDT', chain: 'TRX', address, amount: '31.5' } },
      })) as { ok: true; data: { ticket: string } };
      const ref = (
        (await slow.core.invokeConfirm('confirmState', {})) as { ok: true; data: { tickets: { id: string; ref: string }[] } }
      ).data.tickets.find((t) => t.id === ticket.data.ticket)!.ref;
      expect(
        (await slow.core.invokeConfirm('confirmSign', { ticket: ticket.data.ticket, operator, passphrase: TEST_OPERATOR.passphrase })).ok,
      ).toBe(true);
      const row = tab.locator(`[data-intent="${ref}"]`);
      const doubt = row.getByTestId('in-doubt');
      await doubt.waitFor({ timeout: 20_000 });
      expect(await row.getAttribute('data-state')).toBe('unconfirmed');
      expect(await doubt.textContent()).toMatch(
        /^Outcome not known yet: the first request may still reach the exchange\. Nothing is sent again before \d\d:\d\d:\d\d \(\d+ s left\)/,
      );
      await tab.screenshot({ path: 'e2e/artifacts/activity-in-doubt.png' });
      // The held request lands inside the doubt: found, never sent twice.
      await expect.poll(() => row.getAttribute('data-state'), { timeout: 40_000 }).toBe('accepted');
      expect(await row.getByTestId('in-doubt').count()).toBe(0);
      await new Promise((r) => setTimeout(r, 1_000));
      const records = await sandboxGet<unknown[]>(slow.sandbox.credentialsPath, '/wallet/withdrawals', `withdraw_order_id=${ref}`);
      expect(records).toHaveLength(1);
    } finally {
      await tab.close();
      await slow.stop();
    }
  }, 120_000);
});
