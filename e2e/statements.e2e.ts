import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import Decimal from 'decimal.js';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readSandboxCredentials } from '../electron/core/profiles/sandbox.ts';
import { sendGoverned } from '../electron/core/approvals/testkit/governed.ts';
import { launchBrowser, ROOT, startDesk, type DeskUnderTest } from './harness.ts';
import { sandboxGetAs, sandboxPost } from './sandboxApi.ts';
import { pdfPages } from '../electron/core/statements/testkit/pdfText.ts';

// Month end: the operator builds this month's USDT statement of a sub-account (money sent to it by the
// desk under the policy, and some taken back by another tool), downloads its CSV, and hands it back to
// Verify, and its PDF too; the same CSV with one figure changed does not verify.

/** The verdict on the file issued as `filename` (each verdict names it, so one is not read for another). */
const verified = (filename: string) => new RegExp(`^Verified\\. Issued by this desk at .*${filename.replaceAll('.', '\\.')}`);

describe('Statements: a sub-account month, its CSV and PDF issued and verified', () => {
  let desk: DeskUnderTest;
  let browser: Browser;
  let page: Page;

  beforeAll(async () => {
    desk = await startDesk({ coolingOffMs: 0 });
    browser = await launchBrowser();
    page = await browser.newPage({ viewport: { width: 1024, height: 900 }, acceptDownloads: true });
    page.setDefaultTimeout(30_000);
  });
  afterAll(async () => {
    await browser?.close();
    await desk?.stop();
  });

  it('reconciles to the exchange, and Verify tells the issued file from a changed one', async () => {
    const sub = readSandboxCredentials(desk.sandbox.credentialsPath).sub_accounts[0]!.uid;
    const sent = await sendGoverned(desk.core, {
      kind: 'main_sub_transfer',
      input: { sub_account: sub, currency: 'USDT', amount: '25.5', direction: 'to' },
    });
    // The exchange took it (the desk marks it done once its record is read back, which may come later).
    expect(['accepted', 'done']).toContain(sent.state);
    await sandboxPost(desk.sandbox.credentialsPath, '/wallet/sub_account_transfers', {
      sub_account: sub,
      currency: 'USDT',
      amount: '4.25',
      direction: 'from',
    });
    await desk.core.invoke('historySync', {});

    await page.goto(desk.host.url);
    await page.getByRole('link', { name: 'Statements' }).click();
    const form = page.getByRole('form', { name: 'Statement' });
    await form.getByLabel('Account').selectOption(sub);
    await form.getByLabel('Currency').fill('usdt');
    await form.getByRole('button', { name: 'Build statement' }).click();
    const statement = page.getByTestId('statement');
    await statement.waitFor();

    // The exchange's own figure, read apart from the desk: the sub-account's USDT now.
    const rows = await sandboxGetAs<{ currency: string; available: string; locked: string }[]>(
      desk.sandbox.credentialsPath,
      sub,
      '/spot/accounts',
      'currency=USDT',
    );
    const exchangeTotal = new Decimal(rows[0]!.available).plus(rows[0]!.locked).toFixed();
    expect(await page.getByTestId('statement-closing').textContent()).toBe(`${exchangeTotal} USDT`);
    expect(await page.getByTestId('statement-difference').textContent()).toBe('0 USDT');
    await page.getByTestId('statement-reconciled').waitFor();
    const table = page.getByTestId('statement-movements');
    expect(await table.getByRole('row').filter({ hasText: '25.5' }).textContent()).toContain(sent.id);
    expect(await table.getByRole('row').filter({ hasText: '-4.25' }).count()).toBe(1);
    // The layout rule (docs/layout.md) with the statement drawn: nothing scrolls sideways at 1024 px.
    expect(await page.evaluate('document.scrollingElement.scrollWidth - document.scrollingElement.clientWidth')).toBeLessThanOrEqual(0);
    await page.screenshot({ path: join(ROOT, 'resources', 'screenshots', 'statement.png'), fullPage: true });

    const verifyRegion = page.getByRole('region', { name: 'Verify a statement' });
    const downloading = page.waitForEvent('download');
    await statement.getByRole('button', { name: 'Download CSV' }).click();
    const download = await downloading;
    const file = join(desk.dataDir, download.suggestedFilename());
    await download.saveAs(file);
    expect(download.suggestedFilename()).toMatch(new RegExp(`^statement-${sub}-USDT-\\d{4}-\\d{2}-\\d{2}-\\d{4}-\\d{2}-\\d{2}\\.csv$`));
    const csv = readFileSync(file, 'utf8');
    expect(csv.split('\n')[0]).toBe('date,account,currency,type,amount,fee,balance_after,exchange_id,desk_id,approved_by');
    expect(csv).toContain(`,25.5,0,`);
    expect(csv).toContain(`,${sent.id},`);
    await page.getByTestId('statement-issued').waitFor();

    // The PDF, as a viewer reads it: the same closing figure, the desk's id on the transfer it sent, its pages
    // numbered; handed back, it verifies.
    const pdfDownloading = page.waitForEvent('download');
    await statement.getByRole('button', { name: 'Download PDF' }).click();
    const pdfDownload = await pdfDownloading;
    const pdfPath = join(desk.dataDir, pdfDownload.suggestedFilename());
    await pdfDownload.saveAs(pdfPath);
    expect(pdfDownload.suggestedFilename()).toMatch(/\.pdf$/);
    const pages = await pdfPages(readFileSync(pdfPath));
    expect(pages[0]).toContain(`Exchange's closing balance ${exchangeTotal} USDT`);
    expect(pages[0]).toContain('Difference 0 USDT');
    // A long id wraps inside its column: read without the line breaks.
    expect(pages.join('').replace(/\s/g, '')).toContain(sent.id);
    expect(pages.at(-1)).toContain(`Page ${pages.length} of ${pages.length}`);
    await verifyRegion.getByLabel('Statement file').setInputFiles(pdfPath);
    await expect.poll(() => page.getByTestId('statement-verdict').textContent()).toMatch(verified(pdfDownload.suggestedFilename()));

    // The main account's month over the Sandbox's seeded history (withdrawals, deposits, transfers, UID
    // transfers, conversions) adds up too.
    await form.getByLabel('Account').selectOption('main');
    await form.getByRole('button', { name: 'Build statement' }).click();
    await expect.poll(() => page.getByTestId('statement').textContent()).toContain('Main account');
    expect(await page.getByTestId('statement-difference').textContent()).toBe('0 USDT');

    await verifyRegion.getByLabel('Statement file').setInputFiles(file);
    await expect.poll(() => page.getByTestId('statement-verdict').textContent()).toMatch(verified(download.suggestedFilename()));
    const changed = join(desk.dataDir, 'changed.csv');
    writeFileSync(changed, csv.replace(',25.5,0,', ',255,0,'));
    await verifyRegion.getByLabel('Statement file').setInputFiles(changed);
    await expect
      .poll(() => page.getByTestId('statement-verdict').textContent())
      .toMatch(/^Does not verify\. No statement this desk issued has this content/);

    // Month end for finance: every account the profile can read, in two currencies, side by side, each
    // reconciled; a currency named twice is refused on its field before anything is read.
    const withKey = readSandboxCredentials(desk.sandbox.credentialsPath).sub_accounts.map((k) => k.uid);
    await form.getByLabel('Account').selectOption('every');
    await form.getByLabel('Currency').fill('usdt usdt');
    await form.getByRole('button', { name: 'Build statement' }).click();
    await expect.poll(() => form.getByText('A currency is named twice.').count()).toBe(1);
    await form.getByLabel('Currency').fill('USDT, BTC');
    await form.getByRole('button', { name: 'Build statement' }).click();
    const every = page.getByTestId('every-statements');
    await every.waitFor();
    const everyRows = every.locator('tbody tr');
    expect(
      await everyRows.evaluateAll((trs) => trs.map((tr) => `${tr.getAttribute('data-account')} ${tr.getAttribute('data-currency')}`)),
    ).toEqual(['main', ...withKey.sort()].flatMap((a) => [`${a} USDT`, `${a} BTC`]));
    expect(await every.getByRole('status').textContent()).toBe(
      `All ${2 * (withKey.length + 1)} statements reconcile: each one's opening + movements is the exchange's closing balance.`,
    );
    // The account's name keeps room to be read at 1024 px beside the figures (no letter-by-letter column).
    expect((await everyRows.first().locator('td').first().boundingBox())!.width).toBeGreaterThan(110);
    await page.screenshot({ path: join(ROOT, 'resources', 'screenshots', 'statement-every.png'), fullPage: true });
    await every.locator(`tr[data-account="${sub}"][data-currency="USDT"]`).getByRole('button', { name: 'Show' }).click();
    expect(await page.getByTestId('statement-closing').textContent()).toBe(`${exchangeTotal} USDT`);
    expect(await page.evaluate('document.scrollingElement.scrollWidth - document.scrollingElement.clientWidth')).toBeLessThanOrEqual(0);
  });
});
