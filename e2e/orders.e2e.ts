import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Dec } from '../shared/money.ts';
import { dropRelay, type DropRelay } from './dropRelay.ts';
import { createFirstOperator, openWindows, signTicket, waitingTicket } from './confirmPage.ts';
import { launchBrowser, ROOT, startDesk, type DeskUnderTest } from './harness.ts';
import { sandboxGet, sandboxGetAs } from './sandboxApi.ts';

// Spot orders as an operator places them: the Orders page drafts, Alice signs in the confirmation page,
// and every figure is checked against the Sandbox with the test's own signer. The desk reaches the
// Sandbox through a relay that, when armed, lets an order land and then drops its answer.

const SHOTS = join(ROOT, 'resources', 'screenshots');
const PASS = 'alice passphrase 1';
const PAIR = 'BTC_USDT';
const SUB = '10000101';

type Order = {
  id: string;
  text: string;
  status: string;
  finish_as: string;
  filled_amount: string;
  filled_total: string;
  fee: string;
  fee_currency: string;
};
type Account = { currency: string; available: string; locked: string };
type Book = { asks: [string, string][]; bids: [string, string][] };

describe('Orders: place, follow and cancel spot orders', () => {
  let desk: DeskUnderTest;
  let relay: DropRelay;
  let armed = false;
  let browser: Browser;
  let page: Page;
  let confirm: Page;

  const creds = () => desk.sandbox.credentialsPath;
  const book = () => sandboxGet<Book>(creds(), '/spot/order_book', `currency_pair=${PAIR}&limit=5`);
  const spot = async (currency: string): Promise<Dec> => {
    const [a] = await sandboxGet<Account[]>(creds(), '/spot/accounts', `currency=${currency}`);
    return new Dec(a?.available ?? '0').plus(a?.locked ?? '0');
  };
  const ordersAt = async (status: 'open' | 'finished', sub?: string): Promise<Order[]> => {
    const q = `currency_pair=${PAIR}&status=${status}&limit=100`;
    return sub ? sandboxGetAs<Order[]>(creds(), sub, '/spot/orders', q) : sandboxGet<Order[]>(creds(), '/spot/orders', q);
  };

  /** A price a tenth under the best bid, at the pair's precision: it rests on the book. */
  const below = async (bid: string): Promise<string> => {
    const pair = (await sandboxGet<Array<{ id: string; precision: number }>>(creds(), '/spot/currency_pairs')).find((p) => p.id === PAIR)!;
    return new Dec(bid).mul('0.9').toDecimalPlaces(pair.precision).toFixed();
  };

  /** Fills the form as a person would, reviews, sends for signing, signs; answers the journal's row for it. */
  async function place(o: {
    side?: 'Buy' | 'Sell';
    amount: string;
    price: string;
    tif?: string;
    label: string;
  }): Promise<{ state: string; label: string; exchangeId: string }> {
    const form = page.getByRole('form', { name: /New order/ });
    await form.getByRole('button', { name: o.side ?? 'Buy' }).click();
    await form.getByLabel('Type').selectOption('limit');
    await form.getByLabel('Amount').fill(o.amount);
    await form.getByLabel('Price').fill(o.price);
    await form.getByLabel('Time in force').selectOption(o.tif ?? 'gtc');
    await form.getByLabel('Label').fill(o.label);
    await form.getByRole('button', { name: 'Review' }).click();
    await page.getByTestId('estimate').waitFor();
    await page.getByRole('button', { name: 'Send for signing' }).click();
    await page.getByTestId('awaiting-signature').waitFor();
    expect(await signTicket(await waitingTicket(confirm), 'Alice', PASS)).toMatch(/^Signed: /);
    // The review that drafted it follows it to the exchange's answer in place.
    const outcome = page.getByTestId('request-outcome');
    await expect.poll(() => outcome.getAttribute('data-state'), { timeout: 30_000 }).toMatch(/^(done|accepted|refused|needs_attention)$/);
    await page.getByRole('button', { name: 'New order' }).click();
    const row = page
      .getByTestId('sent-orders')
      .locator('tr')
      .filter({ hasText: `t-${o.label}.` })
      .first();
    await expect.poll(async () => row.getAttribute('data-state'), { timeout: 30_000 }).toMatch(/^(done|refused|needs_attention)$/);
    const text = (await row.textContent()) ?? '';
    return {
      state: (await row.getAttribute('data-state'))!,
      label: (await row.getAttribute('data-label'))!,
      exchangeId: /\(order (\d+)\)/.exec(text)?.[1] ?? '',
    };
  }

  beforeAll(async () => {
    desk = await startDesk({
      coolingOffMs: 0,
      // Withdrawals stand still (a refund landing mid-test would move the balances the fill is checked by).
      sandboxArgs: ['--speed', '0'],
      via: async (base) => {
        relay = await dropRelay(base, (method, path) => {
          if (!armed || method !== 'POST' || !path.endsWith('/spot/orders')) return false;
          armed = false;
          return true;
        });
        return relay.baseUrl;
      },
    });
    mkdirSync(SHOTS, { recursive: true });
    browser = await launchBrowser();
    ({ page, confirm } = await openWindows(
      browser,
      { host: desk.host.url, confirm: desk.confirm.url },
      { viewport: { width: 1024, height: 700 }, colorScheme: 'light' },
    ));
    await createFirstOperator(confirm, 'Alice', PASS);
    await page.getByRole('link', { name: 'Orders' }).click();
    await page.getByTestId('order-book').waitFor();
  }, 90_000);
  afterAll(async () => {
    await browser?.close();
    await desk?.stop();
    await relay?.close();
  });

  it('fills a limit order against the book: filled in the history, balances moved by the fill and the fee', async () => {
    const [ask, size] = (await book()).asks[0]!;
    const amount = Dec.min(new Dec('0.002'), new Dec(size)).toFixed();
    const [btc0, usdt0] = [await spot('BTC'), await spot('USDT')];
    const r = await place({ amount, price: ask, label: 'fill1' });
    expect(r.state).toBe('done');
    const order = (await ordersAt('finished')).find((o) => o.id === r.exchangeId)!;
    expect(order).toMatchObject({ status: 'closed', finish_as: 'filled', filled_amount: amount, fee_currency: 'BTC' });
    // The pair's fee (0.2 %) is taken from the BTC received.
    expect(new Dec(order.fee).eq(new Dec(amount).mul('0.002'))).toBe(true);
    expect((await spot('BTC')).minus(btc0).eq(new Dec(amount).minus(order.fee))).toBe(true);
    expect(usdt0.minus(await spot('USDT')).eq(order.filled_total)).toBe(true);
    const shown = page.getByTestId('order-history').locator(`tr[data-order="${r.exchangeId}"]`);
    await expect.poll(() => shown.getAttribute('data-finish-as')).toBe('filled');
    expect(await shown.textContent()).toContain('Filled in full');
    expect(await shown.textContent()).toContain(`${order.fee} BTC`);
  }, 90_000);

  it("shows the exchange's refusal of a post-only order that would take, as a sentence", async () => {
    const [ask] = (await book()).asks[0]!;
    const r = await place({ amount: '0.001', price: ask, tif: 'poc', label: 'poc1' });
    expect(r).toMatchObject({ state: 'refused', label: 'POC_FILL_IMMEDIATELY' });
    const row = page.getByTestId('sent-orders').locator('tr').filter({ hasText: 't-poc1.' });
    expect(await row.getByTestId('outcome').textContent()).toBe('The post-only order would have filled at once, so it was cancelled.');
    expect((await ordersAt('open')).some((o) => o.text.startsWith('t-poc1.'))).toBe(false);
  }, 90_000);

  it('cancels an open order from the open orders list', async () => {
    const [bid] = (await book()).bids[0]!;
    const price = await below(bid);
    const r = await place({ amount: '0.001', price, label: 'rest1' });
    expect(r.state).toBe('done');
    const row = page.getByTestId('open-orders').locator(`tr[data-order="${r.exchangeId}"]`);
    await row.waitFor();
    await page.getByRole('heading', { name: 'Orders', level: 1 }).scrollIntoViewIfNeeded();
    await page.screenshot({ path: join(SHOTS, 'orders.png') });
    await row.getByRole('button', { name: 'Cancel' }).click();
    await row.waitFor({ state: 'detached' });
    const done = page.getByTestId('order-history').locator(`tr[data-order="${r.exchangeId}"]`);
    await expect.poll(() => done.getAttribute('data-finish-as')).toBe('cancelled');
    expect(await done.textContent()).toContain('Cancelled by the user');
    expect((await ordersAt('finished')).find((o) => o.id === r.exchangeId)).toMatchObject({ status: 'cancelled', finish_as: 'cancelled' });
    // Activity's row of the order itself shows its latest known status, as the cancel's own row does.
    await page.getByRole('link', { name: 'Activity' }).click();
    const placed = page.locator('tr[data-intent]').filter({ hasText: `t-rest1.` });
    await expect
      .poll(() => placed.getByTestId('exchange-status').locator('.status-badge').textContent(), { timeout: 15_000 })
      .toBe('cancelled');
    await page.getByRole('link', { name: 'Orders' }).click();
    await page.getByTestId('order-book').waitFor();
  }, 90_000);

  it('places an order whose answer the relay dropped exactly once', async () => {
    const [bid] = (await book()).bids[0]!;
    const price = await below(bid);
    armed = true;
    const r = await place({ amount: '0.001', price, label: 'drop1' });
    expect(relay.dropped).toEqual(['POST /api/v4/spot/orders']);
    expect(r.state).toBe('done');
    const atExchange = (await ordersAt('open')).filter((o) => o.text.startsWith('t-drop1.'));
    expect(atExchange.map((o) => o.id)).toEqual([r.exchangeId]);
    const journal = (await desk.core.invoke('intentsList', { limit: 20 })) as {
      ok: true;
      data: { items: Array<{ body: Record<string, unknown>; attempts: number; state: string }> };
    };
    const intent = journal.data.items.find((i) => String(i.body.text).startsWith('t-drop1.'))!;
    // Sent once, answer lost, found by its text: never sent a second time.
    expect(intent).toMatchObject({ attempts: 1, state: 'done' });
  }, 90_000);

  it("places an order for a sub-account from its row, signed by the sub-account's own key", async () => {
    await page.getByRole('link', { name: 'Sub-accounts' }).click();
    await page.getByTestId(`orders-${SUB}`).click();
    await expect.poll(() => page.getByTestId('orders-owner').textContent()).toContain(SUB);
    await page.getByTestId('order-book').waitFor();
    const [bid] = (await book()).bids[0]!;
    const price = await below(bid);
    const r = await place({ amount: '0.001', price, label: 'sub1' });
    expect(r.state).toBe('done');
    // The Sandbox files an order under the account whose key signed it.
    expect((await ordersAt('open', SUB)).filter((o) => o.text.startsWith('t-sub1.')).map((o) => o.id)).toEqual([r.exchangeId]);
    expect((await ordersAt('open')).some((o) => o.text.startsWith('t-sub1.'))).toBe(false);
    await page.getByTestId('open-orders').locator(`tr[data-order="${r.exchangeId}"]`).waitFor();
  }, 90_000);
});
