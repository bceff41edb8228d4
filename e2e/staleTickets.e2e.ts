import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openOperatorDesk, signTicket, waitingTicket, type OperatorDesk } from './confirmPage.ts';

// Two "Add … to the address book" tickets for one address, as an operator who clicked twice makes them:
// once one is signed, the other leaves the confirmation page with a sentence saying why, and its
// "Signature needed" notice is done (read), so the unread count does not grow with what needs nobody.

const PASS = 'alice passphrase 1';
const ADDRESS = 'TQn9Y2khEsLJW1ChVWFMSMeRDow5KcbLSE';
const TITLE = `Add ${ADDRESS} (USDT on TRX) to the address book`;

describe('a ticket whose cause is gone leaves the confirmation page', () => {
  let opened: OperatorDesk | undefined;
  let page: Page;
  let confirm: Page;

  beforeAll(async () => {
    opened = await openOperatorDesk({ name: 'Alice', passphrase: PASS });
    ({ page, confirm } = opened);
  }, 60_000);
  afterAll(() => opened?.stop());

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
    // The Sandbox's world tells of other things meanwhile (withdrawals ending): the tickets' own notices are read.
    const tray = page.getByRole('dialog', { name: 'Notices' });
    const ticketNotices = async (): Promise<string[]> => {
      await page.locator('.notices-button').click();
      const items = (await tray.getByRole('listitem').allTextContents()).filter((t) => t.includes(TITLE));
      await page.keyboard.press('Escape');
      await tray.waitFor({ state: 'detached' });
      return items;
    };
    await expect
      .poll(ticketNotices, { timeout: 15_000 })
      .toEqual([expect.stringMatching(/^Signature needed new/), expect.stringMatching(/^Signature needed new/)]);

    expect(await signTicket(await waitingTicket(confirm, new RegExp(TITLE.replace(/[()]/g, '\\$&'))), 'Alice', PASS)).toBe(
      `Signed: ${TITLE}.`,
    );
    // The other one is no longer signable, and the page says why.
    await expect.poll(() => confirm.getByTestId('ticket').filter({ hasText: TITLE }).count(), { timeout: 15_000 }).toBe(0);
    const withdrawn = confirm.getByRole('region', { name: 'Withdrawn, no longer signable' });
    expect(await withdrawn.getByRole('listitem').allTextContents()).toEqual([`${TITLE}: that address is in the address book already.`]);
    await confirm.getByTestId('nothing').waitFor();

    // In the main window: neither ticket's notice is unread any more; the withdrawn one says why.
    await expect
      .poll(ticketNotices, { timeout: 15_000 })
      .toEqual(
        [
          `Signature no longer needed${TITLE}: withdrawn from the confirmation window, that address is in the address book already.`,
          `Signature no longer waiting${TITLE}: signed.`,
        ].map((t) => expect.stringMatching(new RegExp(`^${t.replace(/[()[\].]/g, '\\$&')}`))),
      );
  }, 90_000);
});
