import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createFirstOperator, openWindows, signTicket, waitingTicket } from './confirmPage.ts';
import { launchBrowser, startDesk, type DeskUnderTest } from './harness.ts';

// Two "Add … to the address book" tickets for one address, as an operator who clicked twice makes them:
// once one is signed, the other leaves the confirmation page with a sentence saying why, and its
// "Signature needed" notice is done (read), so the unread count does not grow with what needs nobody.

const PASS = 'alice passphrase 1';
const ADDRESS = 'TQn9Y2khEsLJW1ChVWFMSMeRDow5KcbLSE';
const TITLE = `Add ${ADDRESS} (USDT on TRX) to the address book`;

describe('a ticket whose cause is gone leaves the confirmation page', () => {
  let desk: DeskUnderTest;
  let browser: Browser;
  let page: Page;
  let confirm: Page;

  beforeAll(async () => {
    desk = await startDesk({ coolingOffMs: 0 });
    browser = await launchBrowser();
    ({ page, confirm } = await openWindows(
      browser,
      { host: desk.host.url, confirm: desk.confirm.url },
      { viewport: { width: 1280, height: 900 } },
    ));
    await createFirstOperator(confirm, 'Alice', PASS);
  }, 60_000);
  afterAll(async () => {
    await browser?.close();
    await desk?.stop();
  });

  it('the second entry for one address is withdrawn with why once the first is signed; both notices are done', async () => {
    await page.getByRole('link', { name: 'Withdrawals' }).click();
    await page.getByRole('button', { name: 'New withdrawal' }).click();
    const form = page.getByRole('form', { name: 'New withdrawal' });
    await form.getByLabel('Currency').selectOption('USDT');
    await form.getByLabel('Chain').selectOption('TRX');
    await form.getByLabel('A new address').check();
    await form.getByLabel('New address', { exact: true }).fill(ADDRESS);
    const add = form.getByRole('button', { name: 'Add to address book' });
    await add.click();
    await expect.poll(() => confirm.getByTestId('ticket').filter({ hasText: TITLE }).count(), { timeout: 15_000 }).toBe(1);
    await add.click();
    await expect.poll(() => confirm.getByTestId('ticket').filter({ hasText: TITLE }).count(), { timeout: 15_000 }).toBe(2);
    await expect.poll(() => page.getByRole('button', { name: /^Notices \(2 unread\)$/ }).count(), { timeout: 15_000 }).toBe(1);

    expect(await signTicket(await waitingTicket(confirm, new RegExp(TITLE.replace(/[()]/g, '\\$&'))), 'Alice', PASS)).toBe(
      `Signed: ${TITLE}.`,
    );
    // The other one is no longer signable, and the page says why.
    await expect.poll(() => confirm.getByTestId('ticket').filter({ hasText: TITLE }).count(), { timeout: 15_000 }).toBe(0);
    const withdrawn = confirm.getByRole('region', { name: 'Withdrawn, no longer signable' });
    expect(await withdrawn.getByRole('listitem').allTextContents()).toEqual([`${TITLE}: that address is in the address book already.`]);
    await confirm.getByTestId('nothing').waitFor();

    // In the main window: nothing unread is left of either ticket; the withdrawn one says why.
    await expect.poll(() => page.getByRole('button', { name: 'Notices', exact: true }).count(), { timeout: 15_000 }).toBe(1);
    await page.getByRole('button', { name: 'Notices', exact: true }).click();
    const tray = page.getByRole('dialog', { name: 'Notices' });
    const items = await tray.getByRole('listitem').allTextContents();
    expect(items.filter((t) => t.includes(TITLE))).toEqual([
      expect.stringContaining(
        `Signature no longer needed${TITLE}: withdrawn from the confirmation window, that address is in the address book already.`,
      ),
      expect.stringContaining(`Signature no longer waiting${TITLE}: signed.`),
    ]);
    expect(items.some((t) => t.includes(' new'))).toBe(false);
  }, 90_000);
});
