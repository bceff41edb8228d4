import { readFileSync } from 'node:fs';
import { parse } from 'csv-parse/sync';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sendGoverned } from '../electron/core/approvals/testkit/governed.ts';
import { launchBrowser, startDesk, type DeskUnderTest } from './harness.ts';
import { sandboxGet } from './sandboxApi.ts';
import { adminMove, adminResetLimits, sandboxAll, sandboxSend } from './sandboxHistory.ts';

// The history pages as an operator uses them, against a real Sandbox (frozen life cycle: statuses move
// only when this test moves them), every figure checked against the Sandbox read by the test's own signer.

interface W {
  id: string;
  status: string;
  address: string;
  currency: string;
  amount: string;
  timestamp: string;
  withdraw_order_id: string;
}

describe('History: withdrawals, deposits, transfers', () => {
  let desk: DeskUnderTest;
  let browser: Browser;
  let page: Page;
  let creds: string;

  // The count of the rows under the filters in force: none while the previous filter's rows stand in.
  const total = (kind: string) =>
    page
      .locator(`.history-table[data-kind="${kind}"]`)
      .evaluate(
        (t, k) =>
          t.getAttribute('data-stale') === 'false'
            ? Number(t.querySelector(`[data-testid="${k}-total"]`)!.textContent!.replace(/\D/g, ''))
            : NaN,
        kind,
      );
  const row = (id: string) => page.locator(`.history-row[data-row="${id}"]`);
  const search = async (text: string) => {
    await page.getByLabel('Search').fill(text);
  };
  const open = async (route: string) => page.locator(`nav a[href="#/${route}"]`).click();

  beforeAll(async () => {
    desk = await startDesk({
      sandboxArgs: ['--speed', '0'],
      history: { syncEveryMs: 60_000, tickMs: 500, checkMaxMs: 2_000 },
      coolingOffMs: 0,
    });
    creds = desk.sandbox.credentialsPath;
    browser = await launchBrowser();
    const context = await browser.newContext({ viewport: { width: 1400, height: 900 }, acceptDownloads: true });
    page = await context.newPage();
    page.setDefaultTimeout(30_000);
    await page.goto(desk.host.url);
    await open('withdrawals');
  });
  afterAll(async () => {
    await browser?.close();
    await desk?.stop();
  });

  it('shows as many withdrawals, deposits, main/sub and UID transfers as the Sandbox holds', async () => {
    // The first (cold) read is over when the line says how far it has read.
    await expect.poll(() => page.locator('.sync-line').textContent(), { timeout: 60_000 }).toContain('read up to');
    const withdrawals = await sandboxAll<W>(creds, '/wallet/withdrawals');
    expect(withdrawals.length).toBeGreaterThan(10);
    await expect.poll(() => total('withdrawals')).toBe(withdrawals.length);
    // The newest record is on top, with its id and its status in words.
    const newest = [...withdrawals].sort((a, b) => Number(b.timestamp) - Number(a.timestamp))[0]!;
    const first = page.locator('.history-row').first();
    expect(withdrawals.filter((w) => w.timestamp === newest.timestamp).map((w) => w.id)).toContain(await first.getAttribute('data-row'));

    await open('deposits');
    const deposits = await sandboxAll<{ id: string }>(creds, '/wallet/deposits');
    await expect.poll(() => total('deposits')).toBe(deposits.length);

    await open('transfers');
    const transfers = await sandboxAll<object>(creds, '/wallet/sub_account_transfers');
    await expect.poll(() => total('transfers')).toBe(transfers.length);
    await page.getByRole('tab', { name: 'UID transfers' }).click();
    const sent = await sandboxAll<object>(creds, '/wallet/push', 'transaction_type=withdraw');
    const received = await sandboxAll<object>(creds, '/wallet/push', 'transaction_type=deposit');
    await expect.poll(() => total('uid_transfers')).toBe(sent.length + received.length);
  });

  it('shows the deposit address of each chain with its memo, minimum, confirmations and a QR code', async () => {
    await open('deposits');
    const expected = await sandboxGet<{
      min_deposit_amount: string;
      multichain_addresses: Array<{ chain: string; address: string; payment_id: string; min_confirms: number }>;
    }>(creds, '/wallet/deposit_address', 'currency=XRP');
    await page.getByLabel('Deposit currency').fill('XRP');
    await page.getByRole('button', { name: 'Show' }).click();
    for (const a of expected.multichain_addresses) {
      const card = page.locator(`.address-card[data-chain="${a.chain}"]`);
      await expect.poll(() => card.textContent()).toContain(a.address);
      if (a.payment_id) expect(await card.textContent()).toContain(a.payment_id);
      expect(await card.textContent()).toContain(`after ${a.min_confirms} confirmations`);
      expect(await card.getByRole('img', { name: `QR code of ${a.chain} address` }).getAttribute('src')).toMatch(
        /^data:image\/svg\+xml;base64,/,
      );
    }
    expect(expected.multichain_addresses.some((a) => a.payment_id)).toBe(true);
    expect(await page.getByRole('region', { name: 'Deposit address' }).textContent()).toContain(
      `Minimum deposit: ${expected.min_deposit_amount}`,
    );
  });

  it('changes a badge and the in-flight count without a reload when the Sandbox moves a withdrawal', async () => {
    await open('withdrawals');
    const withdrawals = await sandboxAll<W>(creds, '/wallet/withdrawals');
    const moving = withdrawals.find((w) => w.status === 'EXTPEND' && withdrawals.filter((x) => x.address === w.address).length === 1)!;
    expect(moving).toBeDefined();
    const inFlight = async () => Number((await page.getByTestId('in-flight').textContent())!.replace(/\D/g, ''));
    const before = withdrawals.filter((w) => !['DONE', 'CANCEL', 'REJECT'].includes(w.status)).length;
    await expect.poll(inFlight).toBe(before);
    expect(await page.getByTestId('withdrawals-in-flight').textContent()).toBe(`${before} withdrawals on their way`);
    await search(moving.address);
    await expect.poll(() => row(moving.id).locator('[data-status]').getAttribute('data-status')).toBe('EXTPEND');

    await adminMove(creds, moving.id, 'DONE');
    await expect.poll(() => row(moving.id).locator('[data-status]').getAttribute('data-status'), { timeout: 20_000 }).toBe('DONE');
    expect(await row(moving.id).textContent()).toContain('Completed');
    await expect.poll(inFlight).toBe(before - 1);
    await expect.poll(() => page.getByTestId('withdrawals-in-flight').textContent()).toBe(`${before - 1} withdrawals on their way`);
    await search('');
  });

  it("flags a withdrawal made at the Sandbox behind the desk's back, and not one the desk sent", async () => {
    // The desk's own withdrawal, drafted and signed by an operator as the form and the confirmation window would.
    const intent = await sendGoverned(desk.core, {
      kind: 'withdrawal',
      input: { currency: 'USDT', chain: 'TRX', address: 'TDeskOwnWithdrawal0000000000000001', amount: '11' },
    });
    expect(intent.state).toBe('accepted');
    // Someone else's, with the same key, straight at the exchange.
    await adminResetLimits(creds);
    const theirs = await sandboxSend<{ withdraw_id: string }>(creds, 'POST', '/withdrawals', {
      currency: 'USDT',
      chain: 'TRX',
      address: 'TStolenKeyDestination000000000001',
      amount: '12.5',
      withdraw_order_id: 'not_from_the_desk_1',
    });

    await page.getByRole('button', { name: 'Refresh' }).click();
    const panel = page.getByRole('region', { name: 'Not sent by this desk' });
    await expect.poll(() => panel.locator(`[data-unsent="${theirs.withdraw_id}"]`).count()).toBe(1);
    expect(await panel.textContent()).toContain('TStolenKeyDestination000000000001');
    expect(await panel.textContent()).not.toContain('TDeskOwnWithdrawal0000000000000001');
    expect(await page.getByTestId('outflows-unsent').textContent()).toBe('1 outflow not sent by this desk');

    // The desk's own shows who sent it.
    const own = await sandboxGet<W[]>(creds, '/wallet/withdrawals', `withdraw_order_id=${intent.client_id}`);
    await search('TDeskOwnWithdrawal');
    await row(own[0]!.id).click();
    await expect.poll(() => page.getByTestId('sent-by').textContent()).toContain(`journal entry ${intent.id}`);
    await page.getByRole('button', { name: 'Close' }).click();
    await search('');

    // Acknowledged with a note, it leaves the top of the page; the row keeps its mark.
    await panel.getByLabel(`Note for ${theirs.withdraw_id}`).fill('treasury colleague, ticket 42');
    await panel.getByRole('button', { name: 'Acknowledge' }).click();
    await expect.poll(() => page.getByRole('region', { name: 'Not sent by this desk' }).count()).toBe(0);
    await search('TStolenKeyDestination');
    await expect.poll(() => row(theirs.withdraw_id).textContent()).toContain('acknowledged');
    await search('');
  });

  it('cancels a withdrawal through the page, and says in words when the exchange refuses', async () => {
    const withdrawals = await sandboxAll<W>(creds, '/wallet/withdrawals');
    const unique = (w: W) => withdrawals.filter((x) => x.address === w.address).length === 1;
    const [a, b] = withdrawals.filter((w) => ['REQUEST', 'REVIEW', 'MANUAL', 'FVERIFY'].includes(w.status) && unique(w));
    expect(a && b).toBeTruthy();

    await search(a!.address);
    await row(a!.id).click();
    const detail = page.getByRole('complementary', { name: `Withdrawal ${a!.id}` });
    await detail.getByRole('button', { name: 'Cancel withdrawal' }).click();
    await detail.getByRole('button', { name: 'Yes, cancel it' }).click();
    await expect.poll(() => detail.getByRole('status').textContent()).toContain('Cancellation accepted (202)');
    const [after] = await sandboxGet<W[]>(creds, '/wallet/withdrawals', `withdraw_id=${a!.id}`);
    expect(after!.status).toBe('CANCELPEND');
    await expect.poll(() => row(a!.id).locator('[data-status]').getAttribute('data-status')).toBe('CANCELPEND');
    await detail.getByRole('button', { name: 'Close' }).click();

    // The exchange moves the other one on while the operator is looking at it: the cancel is refused.
    await search(b!.address);
    await row(b!.id).click();
    const other = page.getByRole('complementary', { name: `Withdrawal ${b!.id}` });
    await other.getByRole('button', { name: 'Cancel withdrawal' }).click();
    await adminMove(creds, b!.id, 'EXTPEND');
    await other.getByRole('button', { name: 'Yes, cancel it' }).click();
    await expect.poll(() => other.getByRole('alert').textContent()).toContain('past the point where it can be cancelled');
    await other.getByRole('button', { name: 'Close' }).click();
    await search('');
  });

  it("filters, and exports the whole filtered list as CSV, row for row the Sandbox's", async () => {
    await search('');
    await page.getByRole('combobox', { name: 'Status' }).selectOption('DONE');
    await page.getByRole('main').getByLabel('Currency').fill('USDT');
    const expected = (await sandboxAll<W>(creds, '/wallet/withdrawals')).filter((w) => w.status === 'DONE' && w.currency === 'USDT');
    await expect.poll(() => total('withdrawals')).toBe(expected.length);
    const shown = await page
      .locator('.history-row[data-row]')
      .evaluateAll((rows) => rows.map((r) => r.querySelector('[data-status]')?.getAttribute('data-status')));
    expect(shown.length).toBeGreaterThan(0);
    expect(new Set(shown)).toEqual(new Set(['DONE']));

    const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: 'Export CSV' }).click()]);
    const rows = parse(readFileSync(await download.path(), 'utf8'), { columns: true }) as Array<Record<string, string>>;
    expect(rows).toHaveLength(expected.length);
    const byId = new Map(expected.map((w) => [w.id, w]));
    for (const r of rows) {
      const w = byId.get(r.id!);
      expect(w, `row ${r.id} is one of the Sandbox's`).toBeDefined();
      expect([r.status, r.currency, r.amount, r.address, r.withdraw_order_id]).toEqual([
        w!.status,
        w!.currency,
        w!.amount,
        w!.address,
        w!.withdraw_order_id,
      ]);
    }
    await page.screenshot({ path: 'resources/screenshots/withdrawals.png' });
  });

  it('paints the first withdrawals and the send buttons while the schema library is still on its way', async () => {
    // The forms above the list (a new withdrawal, an acknowledgement) check with zod: they load when one
    // is opened, not with the rows nor during the first clicks on them. zod's files are held back; a page
    // that waited for them would never show its rows.
    const context = await browser.newContext({ viewport: { width: 1400, height: 900 } });
    let release = () => {};
    const released = new Promise<void>((r) => (release = r));
    const held: string[] = [];
    await context.route(/\/assets\/(zod|zodWords)-[^/]*\.js$/, async (route) => {
      held.push(new URL(route.request().url()).pathname);
      await released;
      await route.continue();
    });
    try {
      const fresh = await context.newPage();
      fresh.setDefaultTimeout(20_000);
      await fresh.goto(desk.host.url);
      await fresh.getByTestId('total-amount').waitFor();
      await fresh.locator('nav a[href="#/withdrawals"]').click();
      await fresh.locator('.history-row[data-row]').first().waitFor();
      expect(Number(await fresh.locator('.history-table').getAttribute('data-total'))).toBeGreaterThan(10);
      const newWithdrawal = fresh.getByRole('button', { name: 'New withdrawal' });
      await newWithdrawal.waitFor();
      // Nothing to acknowledge (the outflow above was), no form open: the schema library was not asked for.
      expect(await fresh.getByRole('region', { name: 'Not sent by this desk' }).count()).toBe(0);
      expect(held).toEqual([]);
      // Opening the form asks for it, says so meanwhile, and shows the form once it is there.
      await newWithdrawal.click();
      await fresh.getByText('Opening the form…').waitFor();
      await expect.poll(() => held.length).toBeGreaterThan(0);
      release();
      await fresh.getByRole('form', { name: 'New withdrawal' }).waitFor();
    } finally {
      release();
      await context.close();
    }
  });
});
