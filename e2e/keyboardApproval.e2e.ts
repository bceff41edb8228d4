import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openWindows } from './confirmPage.ts';
import { launchBrowser, startDesk, type DeskUnderTest } from './harness.ts';

// The approval path from the keyboard alone: a withdrawal drafted in the main window and signed in the
// confirmation page with Tab, typing, Space and Enter, never a click; focus never falls to the page body.
// The operator and the address-book entry are made through the core first (their own tests click them).

const PASS = 'alice passphrase 1';
const ADDRESS = 'TJRabPrwbZy45sbavfcjinPJC18kjpRTv8';

/** What has focus, as a person hears it: its tag and accessible name. */
const focused = (page: Page) =>
  page.evaluate<string>(`(() => {
    const a = document.activeElement;
    if (!a || a === document.body) return 'body';
    const name = a.getAttribute('aria-label') ?? a.labels?.[0]?.textContent?.trim() ?? a.textContent?.trim().slice(0, 60);
    return a.tagName.toLowerCase() + ':' + name;
  })()`);

/** Presses Tab until focus is on what `want` matches; fails if focus falls to the body on the way or is never reached. */
async function tabTo(page: Page, want: RegExp, max = 60): Promise<void> {
  const seen: string[] = [];
  for (let i = 0; i < max; i++) {
    await page.keyboard.press('Tab');
    const at = await focused(page);
    seen.push(at);
    if (at === 'body') throw new Error(`focus fell to the page body after ${seen.join(' → ')}`);
    if (want.test(at)) return;
  }
  throw new Error(`${want} was not reached by Tab: ${seen.join(' → ')}`);
}

describe('the approval path from the keyboard alone', () => {
  let desk: DeskUnderTest;
  let browser: Browser;
  let page: Page;
  let confirm: Page;

  beforeAll(async () => {
    desk = await startDesk({ coolingOffMs: 0 });
    const made = (await desk.core.invokeConfirm('confirmCreateFirstOperator', { name: 'Alice', passphrase: PASS })) as {
      ok: true;
      data: { id: string };
    };
    const entry = (await desk.core.invoke('addressBookAdd', { currency: 'USDT', chain: 'TRX', address: ADDRESS })) as {
      ok: true;
      data: { ticket: string };
    };
    expect((await desk.core.invokeConfirm('confirmSign', { ticket: entry.data.ticket, operator: made.data.id, passphrase: PASS })).ok).toBe(
      true,
    );
    browser = await launchBrowser();
    ({ page, confirm } = await openWindows(
      browser,
      { host: desk.host.url, confirm: desk.confirm.url },
      { viewport: { width: 1280, height: 800 } },
    ));
  }, 60_000);
  afterAll(async () => {
    await browser?.close();
    await desk?.stop();
  });

  it('drafts a withdrawal, reviews it and signs it in the confirmation page by keyboard; the exchange takes it', async () => {
    await page.bringToFront();
    await page.getByRole('heading', { level: 1, name: 'Overview' }).waitFor();
    await tabTo(page, /^a:Withdrawals$/);
    await page.keyboard.press('Enter');
    await page.getByRole('heading', { level: 1, name: 'Withdrawals' }).waitFor();
    await tabTo(page, /^button:New withdrawal$/);
    await page.keyboard.press('Enter');
    const form = page.getByRole('form', { name: 'New withdrawal' });
    await form.waitFor();
    await tabTo(page, /^select:Currency/);
    await page.keyboard.type('USDT');
    await expect.poll(() => form.getByLabel('Currency').inputValue()).toBe('USDT');
    await tabTo(page, /^select:Chain/);
    await page.keyboard.type('TRX');
    await expect.poll(() => form.getByLabel('Chain').inputValue()).toBe('TRX');
    // The addresses are one radio group: Tab enters it, the arrow keys choose within it.
    await tabTo(page, /^input:.*(verified|address book)/);
    for (let i = 0; i < 10 && !/^input:address book/.test(await focused(page)); i++) await page.keyboard.press('ArrowDown');
    expect(await focused(page)).toMatch(/^input:address book/);
    await page.keyboard.press('Space');
    await tabTo(page, /^input:Amount/);
    await page.keyboard.type('26');
    await page.getByTestId('arrives').waitFor();
    await tabTo(page, /^button:Review$/);
    await page.keyboard.press('Enter');
    await page.getByTestId('verdict').waitFor();
    await tabTo(page, /^button:Send for signing$/);
    await page.keyboard.press('Enter');
    await page.getByTestId('awaiting-signature').waitFor();

    await confirm.bringToFront();
    await confirm.getByTestId('ticket').first().waitFor();
    await tabTo(confirm, /^select:Operator$/);
    expect(await confirm.getByLabel('Operator').first().inputValue()).not.toBe('');
    await tabTo(confirm, /^input:Passphrase$/);
    await confirm.keyboard.type(PASS);
    await confirm.keyboard.press('Enter');
    await expect.poll(() => confirm.getByRole('log').textContent(), { timeout: 30_000 }).toMatch(/Signed: /);

    await page.bringToFront();
    await expect
      .poll(() => page.getByTestId('request-outcome').getAttribute('data-state'), { timeout: 30_000 })
      .toMatch(/^(accepted|done)$/);
    expect(await focused(page)).not.toBe('body');
  }, 120_000);
});
