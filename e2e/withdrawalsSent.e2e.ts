import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openOperatorDesk, signTicket, waitingTicket, type OperatorDesk } from './confirmPage.ts';

// The Withdrawals page as an operator uses it right after sending: the withdrawal is on the page at
// once, marked as not yet confirmed by the exchange, before the exchange's list is read again (the
// desk here reads it only when asked); Refresh moves it to the list. A filter change is a step Back undoes.

const PASS = 'alice passphrase 1';
const ADDRESS = 'TJRabPrwbZy45sbavfcjinPJC18kjpRTv8';

describe('Withdrawals right after a send', () => {
  let opened: OperatorDesk | undefined;
  let page: Page;
  let confirm: Page;

  beforeAll(async () => {
    opened = await openOperatorDesk({ name: 'Alice', passphrase: PASS }, { history: { syncEveryMs: 3_600_000 } });
    ({ page, confirm } = opened);
  }, 60_000);
  afterAll(() => opened?.stop());

  it('a sent withdrawal is shown at once as not yet confirmed by the exchange, then in the list', async () => {
    await page.getByRole('link', { name: 'Withdrawals' }).click();
    await page.getByRole('button', { name: 'New withdrawal' }).click();
    const form = page.getByRole('form', { name: 'New withdrawal' });
    await form.getByLabel('Currency').selectOption('USDT');
    await form.getByLabel('Chain').selectOption('TRX');
    await form.getByLabel('A new address').check();
    await form.getByLabel('New address', { exact: true }).fill(ADDRESS);
    await form.getByRole('button', { name: 'Add to address book' }).click();
    expect(await signTicket(await waitingTicket(confirm, /address book/i), 'Alice', PASS)).toMatch(/^Signed: /);
    const entry = form.getByRole('radio', { name: new RegExp(`address book ${ADDRESS}`) });
    await expect.poll(() => entry.count(), { timeout: 30_000 }).toBe(1);
    await entry.check();
    await form.getByLabel('Amount').fill('31.5');
    await page.getByTestId('arrives').waitFor();
    await page.getByRole('button', { name: 'Review' }).click();
    await page.getByTestId('verdict').waitFor();
    await page.getByRole('button', { name: 'Send for signing' }).click();
    await page.getByTestId('awaiting-signature').waitFor();
    expect(await signTicket(await waitingTicket(confirm), 'Alice', PASS)).toMatch(/^Signed: /);

    const panel = page.getByRole('region', { name: 'Sent by this desk, not yet confirmed by the exchange' });
    const item = panel.getByRole('listitem').filter({ hasText: '31.5 USDT' });
    await expect.poll(() => item.count(), { timeout: 30_000 }).toBe(1);
    await expect
      .poll(() => item.getByTestId('sent-unlisted-state').textContent(), { timeout: 30_000 })
      .toMatch(/^not yet confirmed by the exchange · accepted by the exchange as \d+/);
    const inList = () =>
      page.getByRole('table', { name: 'Withdrawal list' }).locator('.history-row[data-row]').filter({ hasText: '31.5' }).count();
    expect(await inList()).toBe(0);

    await page.getByRole('button', { name: 'Refresh' }).click();
    await expect.poll(inList, { timeout: 30_000 }).toBe(1);
    await expect.poll(() => panel.count(), { timeout: 15_000 }).toBe(0);
  }, 120_000);

  it('a filter change is a step of its own: Back undoes it and stays on Withdrawals', async () => {
    const status = page.getByRole('region', { name: 'Withdrawals' }).getByLabel('Status');
    await status.selectOption('CANCEL');
    await expect.poll(() => page.url(), { timeout: 15_000 }).toMatch(/#\/withdrawals\?status=CANCEL$/);
    await page.goBack();
    await expect.poll(() => page.url(), { timeout: 15_000 }).toMatch(/#\/withdrawals$/);
    expect(await status.inputValue()).toBe('');
    await page.getByRole('heading', { level: 1, name: 'Withdrawals' }).waitFor();
  }, 60_000);
});
