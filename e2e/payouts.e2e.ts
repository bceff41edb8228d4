import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'csv-parse/sync';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { caughtNotifications, catchNotifications } from './notifications.ts';
import { createFirstOperator, openWindows, signTicket, waitingTicket } from './confirmPage.ts';
import { launchBrowser, ROOT, startDesk, type DeskUnderTest } from './harness.ts';
import { sandboxGet } from './sandboxApi.ts';

// Payouts from a file as a treasurer does it: a CSV of ten payouts picked in the Payouts page, two of
// them wrong; the page names both errors and queues the other eight as one batch; the operator signs it
// once in the confirmation page; the Sandbox then holds exactly those eight withdrawals, read with the
// test's own signed client. The destinations are the Sandbox's verified saved addresses, which the
// default policy accepts.

const SHOTS = join(ROOT, 'resources', 'screenshots');
const PASS = 'alice passphrase 1';

type Withdrawal = {
  id: string;
  withdraw_order_id?: string;
  currency: string;
  chain: string;
  address: string;
  amount: string;
  memo?: string;
};
type Saved = { currency: string; chain: string; address: string; name: string; verified: string; tag?: string };

describe('Payouts from a CSV file', () => {
  let desk: DeskUnderTest;
  let browser: Browser;
  let page: Page;
  let confirm: Page;

  const recent = async (): Promise<Withdrawal[]> => {
    const now = Math.floor(Date.now() / 1000);
    return sandboxGet<Withdrawal[]>(desk.sandbox.credentialsPath, '/wallet/withdrawals', `from=${now - 3600}&to=${now + 60}&limit=1000`);
  };

  beforeAll(async () => {
    desk = await startDesk({ coolingOffMs: 0 });
    mkdirSync(SHOTS, { recursive: true });
    browser = await launchBrowser();
    ({ page, confirm } = await openWindows(
      browser,
      { host: desk.host.url, confirm: desk.confirm.url },
      { viewport: { width: 1024, height: 700 }, colorScheme: 'light', acceptDownloads: true },
      catchNotifications,
    ));
  }, 60_000);
  afterAll(async () => {
    await browser?.close();
    await desk?.stop();
  });

  it('shows both bad rows with their errors, queues the other eight, and after one approval the Sandbox holds exactly those eight', async () => {
    await createFirstOperator(confirm, 'Alice', PASS);

    const saved = await sandboxGet<Saved[]>(desk.sandbox.credentialsPath, '/wallet/saved_address', 'currency=USDT');
    const trx = saved.find((s) => s.chain === 'TRX' && s.verified === '1')!;
    const eth = saved.find((s) => s.chain === 'ETH' && s.verified === '1')!;
    const ton = saved.find((s) => s.chain === 'TON')!;
    const good = [
      ['USDT', 'TRX', trx.address, '', '11', 'INV-1001'],
      ['USDT', 'TRX', trx.address, '', '12.5', 'INV-1002'],
      ['USDT', 'ETH', eth.address, '', '20', 'INV-1003'],
      ['USDT', 'TRX', trx.address, '', '13', 'INV-1005'],
      ['USDT', 'ETH', eth.address, '', '21.25', 'INV-1006'],
      ['USDT', 'TRX', trx.address, '', '14', 'INV-1008'],
      ['USDT', 'TRX', trx.address, '', '15', 'INV-1009'],
      ['USDT', 'ETH', eth.address, '', '22', 'INV-1010'],
    ];
    // Row 4: the TON chain needs a memo and has none. Row 7: more decimals than the TRX chain takes (6).
    const bad4 = ['USDT', 'TON', ton.address, '', '30', 'INV-1004'];
    const bad7 = ['USDT', 'TRX', trx.address, '', '16.1234567', 'INV-1007'];
    const rows = [good[0], good[1], good[2], bad4, good[3], good[4], bad7, good[5], good[6], good[7]];
    const csvPath = join(desk.dataDir, 'payouts-march.csv');
    writeFileSync(csvPath, `currency,chain,address,memo,amount,reference\n${rows.map((r) => r!.join(',')).join('\n')}\n`);

    await page.getByRole('link', { name: 'Payouts' }).click();
    await page.getByLabel('Payout file').setInputFiles(csvPath);
    await expect.poll(() => page.getByTestId('import-summary').textContent()).toMatch(/10 rows: 8 valid, 2 with problems/);
    const problems = await page
      .getByRole('table', { name: 'Problems' })
      .locator('tbody tr')
      .evaluateAll((trs) => trs.map((tr) => [...tr.querySelectorAll('td')].map((td) => td.textContent)));
    expect(problems).toEqual([
      ['4', '5', 'memo', 'The TON chain needs a memo or tag with the address (is_tag); without it the money is lost.'],
      ['7', '8', 'amount', "The amount has more than 6 decimal places (this chain's precision)."],
    ]);
    expect(await page.getByRole('table', { name: 'Totals' }).locator('tbody td').allTextContents()).toEqual([
      'USDT',
      '8',
      '128.75',
      '18.5',
    ]);
    expect(await page.getByTestId('verdict').textContent()).toContain(
      'Needs 1 approval (rule confirm-every-write, the drafter may approve)',
    );
    expect(await page.getByTestId('file-sha256').textContent()).toMatch(/^[0-9a-f]{64}$/);
    expect(await page.evaluate<number>('document.documentElement.scrollWidth - document.documentElement.clientWidth')).toBe(0);
    await page.screenshot({ path: join(SHOTS, 'payouts-review.png'), fullPage: true });

    const before = new Set((await recent()).map((w) => w.id));
    await page.getByRole('button', { name: 'Send 8 payouts for signing' }).click();
    await expect.poll(() => page.getByTestId('batch-state').textContent()).toMatch(/^Drafted/);
    expect(page.url()).toMatch(/#\/payouts\?batch=/);

    const card = await waitingTicket(confirm);
    expect(await card.textContent()).toContain('payouts-march.csv');
    expect(await signTicket(card, 'Alice', PASS)).toMatch(/^Signed: /);

    // Paced at §8.2 (one withdrawal per 3 s): the bar fills row by row.
    await expect
      .poll(() => page.getByTestId('payout-progress').textContent(), { timeout: 60_000 })
      .toContain('8 of 8 finished: 8 sent, 0 refused, 0 skipped.');
    // A finished batch is announced, as the page that drafted it may no longer be open.
    await expect
      .poll(async () => (await caughtNotifications(page)).map((n) => n.title), { timeout: 20_000 })
      .toContainEqual(expect.stringMatching(/^Payout batch finished: .*payouts-march\.csv/));
    await page.screenshot({ path: join(SHOTS, 'payouts-progress.png'), fullPage: true });

    const added = (await recent()).filter((w) => !before.has(w.id));
    const key = (r: { currency: string; chain: string; address: string; amount: string }) =>
      `${r.currency} ${r.chain} ${r.address} ${Number(r.amount)}`;
    expect(added.map(key).sort()).toEqual(good.map((g) => key({ currency: g[0]!, chain: g[1]!, address: g[2]!, amount: g[4]! })).sort());

    const download = page.waitForEvent('download');
    await page.getByRole('button', { name: 'Export report CSV' }).click();
    const report = parse(readFileSync(await (await download).path(), 'utf8'), { columns: true }) as Record<string, string>[];
    expect(report.map((r) => [r.row, r.reference, r.outcome])).toEqual(
      [1, 2, 3, 5, 6, 8, 9, 10].map((n) => [String(n), `INV-${1000 + n}`, 'sent']),
    );
    expect(report.map((r) => r.withdraw_order_id).sort()).toEqual(added.map((w) => w.withdraw_order_id).sort());

    // The Approvals page lists the batch as one item, which leads back here.
    const batchUrl = page.url();
    await page.getByRole('link', { name: 'Approvals' }).click();
    await page.getByRole('link', { name: /8 withdrawals from payouts-march\.csv/ }).click();
    await expect.poll(() => page.url()).toBe(batchUrl);
    await page.getByTestId('payout-progress').waitFor();
  }, 180_000);
});
