import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readSandboxCredentials } from '../electron/core/profiles/sandbox.ts';
import { createFirstOperator, openWindows, signTicket, waitingTicket } from './confirmPage.ts';
import { launchBrowser, startDesk, type DeskUnderTest } from './harness.ts';
import { sandboxAdmin, sandboxGetAs } from './sandboxApi.ts';

// Sweeping dust as a treasurer does it: two sub-accounts hold a little DOGE (and one a low-cap token);
// the Small balances page lists both with the low-cap flag, the operator selects the two DOGE balances,
// reviews them under the policy, sends them for signing and signs once in the confirmation page. Each
// sub-account's progress fills; the Sandbox, read with each sub-account's own key by the test, then
// holds one conversion each and no DOGE; the page's balances and its history show the same.

const PASS = 'alice passphrase 1';

type Hist = { id: string; currency: string; amount: string; gt_amount: string };
type Spot = { currency: string; available: string };

describe('Small balances swept to GT', () => {
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
      { viewport: { width: 1280, height: 800 }, colorScheme: 'light' },
    ));
  }, 60_000);
  afterAll(async () => {
    await browser?.close();
    await desk?.stop();
  });

  it('converts the selected dust of two sub-accounts once, and the balances and the history move', async () => {
    await createFirstOperator(confirm, 'Alice', PASS);
    const creds = readSandboxCredentials(desk.sandbox.credentialsPath);
    const [a, b] = creds.sub_accounts.slice(0, 2).map((s) => s.uid) as [string, string];
    for (const uid of [a, b]) await sandboxAdmin(desk.sandbox.credentialsPath, 'POST', '/deposits', { uid, currency: 'DOGE', amount: '3' });
    await sandboxAdmin(desk.sandbox.credentialsPath, 'POST', '/deposits', { uid: a, currency: 'PEPEX', amount: '1000' });

    await page.getByRole('link', { name: 'Small balances' }).click();
    const regionA = page.getByRole('region', { name: `Small balances of Sub-account ${a}` });
    const regionB = page.getByRole('region', { name: `Small balances of Sub-account ${b}` });
    await regionA.locator('tr[data-currency="DOGE"]').waitFor();
    await regionB.locator('tr[data-currency="DOGE"]').waitFor();
    // What each holds as the page shows it (the Sandbox's world may have seeded some DOGE already).
    const shown = new Map<string, string>();
    for (const [uid, region] of [
      [a, regionA],
      [b, regionB],
    ] as const)
      shown.set(uid, (await region.locator('tr[data-currency="DOGE"] td').nth(2).textContent())!);
    for (const uid of [a, b]) {
      const spot = await sandboxGetAs<Spot[]>(desk.sandbox.credentialsPath, uid, '/spot/accounts', 'currency=DOGE');
      expect(spot[0]!.available).toBe(shown.get(uid));
    }
    expect(await regionA.locator('tr[data-currency="PEPEX"]').getByTestId('low-cap').textContent()).toBe('low cap');
    expect(await regionA.locator('tr[data-currency="DOGE"]').getByTestId('low-cap').count()).toBe(0);

    await page.getByRole('checkbox', { name: `Convert DOGE of Sub-account ${a}` }).check();
    await page.getByRole('checkbox', { name: `Convert DOGE of Sub-account ${b}` }).check();
    await page.getByRole('button', { name: 'Convert 2 balances to GT…' }).click();
    const review = page.getByRole('region', { name: 'Conversion review' });
    expect(await review.getByTestId('verdict').textContent()).toContain(
      'Needs 1 approval (rule confirm-every-write, the drafter may approve)',
    );
    await review.getByRole('button', { name: 'Send 2 conversions for signing' }).click();
    await expect.poll(() => page.getByTestId('batch-state').textContent()).toMatch(/^Drafted/);
    expect(page.url()).toMatch(/#\/small-balances\?batch=/);

    const card = await waitingTicket(confirm);
    expect(await card.textContent()).toContain('Convert 2 small balances of 2 accounts to GT');
    expect(await signTicket(card, 'Alice', PASS)).toMatch(/^Signed: /);
    for (const uid of [a, b])
      await expect
        .poll(
          () =>
            page
              .getByRole('region', { name: `Progress of Sub-account ${uid}` })
              .getByTestId('account-progress')
              .textContent(),
          {
            timeout: 30_000,
          },
        )
        .toBe('1 of 1 converted.');

    // The exchange, asked with each sub-account's own key: one conversion each, no DOGE left.
    for (const uid of [a, b]) {
      const hist = await sandboxGetAs<Hist[]>(desk.sandbox.credentialsPath, uid, '/wallet/small_balance_history', 'currency=DOGE');
      expect(hist.map((h) => [h.currency, h.amount])).toEqual([['DOGE', shown.get(uid)]]);
      const spot = await sandboxGetAs<Spot[]>(desk.sandbox.credentialsPath, uid, '/spot/accounts', 'currency=DOGE');
      expect(spot[0]?.available ?? '0').toBe('0');
    }

    // Back on the balances: the DOGE rows are gone, the low-cap token left alone.
    await page.getByRole('button', { name: 'Back to the balances' }).click();
    await regionA.locator('tr[data-currency="PEPEX"]').waitFor();
    await expect.poll(() => regionA.locator('tr[data-currency="DOGE"]').count()).toBe(0);
    await expect.poll(() => regionB.locator('tr[data-currency="DOGE"]').count()).toBe(0);

    // The history of each account shows its conversion.
    const history = page.getByRole('region', { name: 'Conversion history' });
    await history.getByLabel('Account', { exact: true }).selectOption(b);
    await history.locator('tr[data-currency="DOGE"]').waitFor();
    expect(await history.locator('tr[data-currency="DOGE"] td').nth(2).textContent()).toBe(shown.get(b));
    expect(await page.evaluate<number>('document.documentElement.scrollWidth - document.documentElement.clientWidth')).toBe(0);
  }, 120_000);
});
