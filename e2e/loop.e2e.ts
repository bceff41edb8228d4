import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readSandboxCredentials } from '../electron/core/profiles/sandbox.ts';
import { adminCall } from '../electron/core/testkit/sandboxAdmin.ts';
import { createFirstOperator, openWindows, signTicket, waitingTicket } from './confirmPage.ts';
import { launchBrowser, startDesk, type DeskUnderTest } from './harness.ts';
import { caughtNotifications, catchNotifications } from './notifications.ts';

// docs/histories.md §Notifications and notices: a withdrawal drafted on the Withdrawals page is followed on that page, after
// its signature, to its final status, with a link to its record; and the operator is told it finished
// (the browser's notification under the web host, and the in-app notices, kept until read).

const PASS = 'alice passphrase 1';

describe('The loop closes where the write was drafted', () => {
  let desk: DeskUnderTest;
  let browser: Browser;
  let page: Page;
  let confirm: Page;

  beforeAll(async () => {
    // Withdrawals stand still at the Sandbox until the test moves one: its final status is the test's.
    desk = await startDesk({ coolingOffMs: 0, sandboxArgs: ['--speed', '0'] });
    browser = await launchBrowser();
    ({ page, confirm } = await openWindows(
      browser,
      { host: desk.host.url, confirm: desk.confirm.url },
      { viewport: { width: 1280, height: 900 } },
      catchNotifications,
    ));
    await createFirstOperator(confirm, 'Alice', PASS);
  }, 60_000);
  afterAll(async () => {
    await browser?.close();
    await desk?.stop();
  });

  it('a withdrawal: signed, sent, accepted, then DONE on the Withdrawals page, with its record and a notification', async () => {
    await page.getByRole('link', { name: 'Withdrawals' }).click();
    await page.getByRole('button', { name: 'New withdrawal' }).click();
    const form = page.getByRole('form', { name: 'New withdrawal' });
    await form.getByLabel('Currency').selectOption('USDT');
    await form.getByLabel('Chain').selectOption('TRX');
    await form.getByText('Cold wallet TRC20').click();
    await form.getByLabel('Amount').fill('12');
    await page.getByRole('button', { name: 'Review' }).click();
    await page.getByRole('button', { name: 'Send for signing' }).click();
    const outcome = page.getByTestId('request-outcome');
    await expect.poll(() => outcome.getAttribute('data-state')).toBe('to_sign');
    expect(await signTicket(await waitingTicket(confirm, /Draft a withdrawal/), 'Alice', PASS)).toMatch(/^Signed: /);

    // Accepted by the exchange, then held there (speed 0): the page says so, with the exchange's id.
    await expect.poll(() => outcome.getAttribute('data-state'), { timeout: 30_000 }).toBe('accepted');
    const accepted = (await outcome.getByRole('status').textContent()) ?? '';
    expect(accepted).toMatch(/^Accepted by the exchange \(exchange id (w?\d+); \w+: .+\)\. Waiting for its final status\.$/);
    const exchangeId = /exchange id (w?\d+)/.exec(accepted)![1]!;

    await adminCall(readSandboxCredentials(desk.sandbox.credentialsPath), 'POST', `/withdrawals/${exchangeId.replace(/^w/, '')}/status`, {
      status: 'DONE',
    });

    // Still on the Withdrawals page, nothing clicked: the outcome arrives in place.
    await expect.poll(() => outcome.getAttribute('data-state'), { timeout: 60_000 }).toBe('done');
    expect(await outcome.getByRole('status').textContent()).toMatch(/^Done \(exchange id w?\d+; DONE: .+\)\.$/);
    expect(await outcome.getByRole('listitem').last().getAttribute('aria-current')).toBe('step');
    await expect
      .poll(async () => (await caughtNotifications(page)).map((n) => n.title), { timeout: 30_000 })
      .toContainEqual(expect.stringMatching(/withdrawal w?\d+: DONE$/));
    // Kept in the window's notices until read.
    await expect.poll(() => page.getByRole('button', { name: /^Notices/ }).textContent()).toMatch(/[1-9]/);

    await outcome.getByRole('link', { name: /Its record/ }).click();
    await expect.poll(() => page.url()).toMatch(/#\/withdrawals\?search=/);
    // The search box takes the record's id and keeps it (its debounce once wrote the old, empty text back).
    const id = decodeURIComponent(/search=([^&]+)/.exec(page.url())![1]!);
    await expect.poll(() => page.getByLabel('Search', { exact: true }).inputValue()).toBe(id);
    await page.waitForTimeout(300);
    expect(page.url()).toContain(`search=${encodeURIComponent(id)}`);
  }, 120_000);
});
