import Decimal from 'decimal.js';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readSandboxCredentials } from '../electron/core/profiles/sandbox.ts';
import { groupDigits } from '../shared/money.ts';
import { createFirstOperator, openWindows, signTicket, waitingTicket } from './confirmPage.ts';
import { launchBrowser, ROOT, startDesk, type DeskUnderTest } from './harness.ts';
import { sandboxGet } from './sandboxApi.ts';

// Each transfer form moves money once, as a person does it: the form in the main window, the review
// with the policy's verdict, a signature in the confirmation page, and the Sandbox's balances and
// records read with the test's own signer (main key) before and after. The move within a sub-account is
// signed by the sub-account's key: the Sandbox moves that sub-account's money and not the main account's.

const SHOTS = join(ROOT, 'resources', 'screenshots');
const PASS = 'alice passphrase 1';
type Intent = { id: string; kind: string; state: string; body: Record<string, string>; client_id: string | null; signer?: string };
type SubTransfer = { client_order_id?: string; sub_account: string; amount: string };

describe('Transfer forms against the Sandbox', () => {
  let desk: DeskUnderTest;
  let browser: Browser;
  let page: Page;
  let confirm: Page;
  let subs: string[];
  const get = <T>(path: string, query = '') => sandboxGet<T>(desk.sandbox.credentialsPath, path, query);

  const mainSpot = async () =>
    new Decimal(
      (await get<{ currency: string; available: string }[]>('/spot/accounts', 'currency=USDT')).find((r) => r.currency === 'USDT')
        ?.available ?? '0',
    );
  const mainFutures = async () => new Decimal((await get<{ available: string }>('/futures/usdt/accounts')).available);
  const subSpot = async (uid: string) =>
    new Decimal(
      (await get<{ available: Record<string, string> }[]>('/wallet/sub_account_balances', `sub_uid=${uid}`))[0]?.available.USDT ?? '0',
    );
  const subFutures = async (uid: string) =>
    new Decimal(
      (
        await get<{ available: Record<string, { available?: string }> }[]>(
          '/wallet/sub_account_futures_balances',
          `sub_uid=${uid}&settle=usdt`,
        )
      )[0]?.available.usdt?.available ?? '0',
    );

  async function intents(): Promise<Intent[]> {
    const r = (await desk.core.invoke('intentsList', {})) as { ok: true; data: { items: Intent[] } };
    return r.data.items;
  }

  /** Review, send for signing, sign as Alice in the confirmation page; waits until the journal says done. */
  async function reviewSignAndWait(kind: string, screenshot?: string, signedText?: string): Promise<Intent> {
    const before = new Set((await intents()).map((i) => i.id));
    await page.getByRole('button', { name: 'Review' }).click();
    await expect.poll(() => page.getByTestId('verdict').textContent()).toMatch(/confirm-every-write/);
    if (screenshot) await page.screenshot({ path: join(SHOTS, screenshot) });
    await page.getByRole('button', { name: 'Send for signing' }).click();
    await page.getByTestId('awaiting-signature').waitFor();
    const card = await waitingTicket(confirm);
    if (signedText) expect(await card.getByTestId('signed-body').textContent()).toContain(signedText);
    expect(await signTicket(card, 'Alice', PASS)).toMatch(/^Signed: /);
    let found: Intent | undefined;
    await expect
      .poll(
        async () => {
          found = (await intents()).find((i) => !before.has(i.id) && i.kind === kind);
          return found?.state;
        },
        { timeout: 30_000 },
      )
      .toBe('done');
    // The form that drafted it says so in place, without a visit to Activity.
    const outcome = page.getByTestId('request-outcome');
    await expect.poll(() => outcome.getAttribute('data-state'), { timeout: 10_000 }).toBe('done');
    expect(await outcome.getByRole('status').textContent()).toMatch(/^Done \(/);
    expect(await outcome.getByRole('link', { name: 'Its record in Activity' }).getAttribute('href')).toBe(`#/activity?intent=${found!.id}`);
    return found!;
  }

  async function newTransfer(kind: string): Promise<void> {
    await page.getByRole('link', { name: 'Transfers' }).click();
    // A form left open by the previous test (its review sent for signing) is closed first.
    const toggle = page.getByRole('button', { name: /^(New transfer|Close the form)$/ });
    if ((await toggle.textContent()) === 'Close the form') await toggle.click();
    await page.getByRole('button', { name: 'New transfer' }).click();
    await page.getByRole('button', { name: kind }).click();
  }

  beforeAll(async () => {
    desk = await startDesk({ coolingOffMs: 0 });
    subs = readSandboxCredentials(desk.sandbox.credentialsPath).sub_accounts.map((s) => s.uid);
    mkdirSync(SHOTS, { recursive: true });
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

  it("between the main account's own accounts: spot to futures, once", async () => {
    const [spot0, fut0] = [await mainSpot(), await mainFutures()];
    await newTransfer("Main account's own accounts");
    const form = page.getByRole('form', { name: /New transfer/ });
    await expect.poll(() => form.getByTestId('draw-available').textContent()).toBe(`${groupDigits(spot0.toFixed())} USDT`);
    await form.getByLabel('Amount').fill(spot0.plus(1).toFixed());
    await form.getByRole('button', { name: 'Review' }).click();
    await form.getByText(/above what the source account holds/).waitFor();
    expect(await page.getByRole('region', { name: 'Review' }).count()).toBe(0);

    await form.getByLabel('Amount').fill('7.25');
    const v = await reviewSignAndWait('own_transfer', 'transfer-review.png');
    expect(v.body).toEqual({ currency: 'USDT', from: 'spot', to: 'futures', amount: '7.25', settle: 'usdt' });
    // The journal says done when the Sandbox answered; the operator then reads both balances.
    await expect
      .poll(async () => [(await mainSpot()).toFixed(), (await mainFutures()).toFixed()])
      .toEqual([spot0.minus('7.25').toFixed(), fut0.plus('7.25').toFixed()]);
  }, 90_000);

  it('main to sub from the matrix\'s "Transfer…", pre-filled: one record with the client_order_id, status confirmed', async () => {
    const uid = subs[0]!;
    const [main0, sub0] = [await mainSpot(), await subSpot(uid)];
    await page.getByRole('link', { name: 'Sub-accounts' }).click();
    await page.getByRole('link', { name: `Transfer… (sub-account ${uid})` }).click();
    const form = page.getByRole('form', { name: /New transfer/ });
    expect(await form.getByLabel('Sub-account uid').inputValue()).toBe(uid);
    await form.getByLabel('Amount').fill('5.5');
    const v = await reviewSignAndWait('main_sub_transfer');
    const now = Math.floor(Date.now() / 1000);
    const records = (
      await get<SubTransfer[]>('/wallet/sub_account_transfers', `sub_uid=${uid}&from=${now - 3600}&to=${now + 60}&limit=1000`)
    ).filter((r) => r.client_order_id === v.client_id);
    expect(records).toHaveLength(1);
    expect((await get<{ status: string }>('/wallet/order_status', `client_order_id=${v.client_id}`)).status).toBe('SUCCESS');
    expect((await mainSpot()).toFixed()).toBe(main0.minus('5.5').toFixed());
    expect((await subSpot(uid)).toFixed()).toBe(sub0.plus('5.5').toFixed());
  }, 90_000);

  it('sub to main: draws from the sub-account, once', async () => {
    const uid = subs[0]!;
    const [main0, sub0] = [await mainSpot(), await subSpot(uid)];
    await newTransfer('Main ↔ sub-account');
    const form = page.getByRole('form', { name: /New transfer/ });
    await form.getByLabel('Direction').selectOption('from');
    await form.getByLabel('Sub-account uid').fill(uid);
    await form.getByLabel('Amount').fill('1.5');
    await reviewSignAndWait('main_sub_transfer');
    expect((await mainSpot()).toFixed()).toBe(main0.plus('1.5').toFixed());
    expect((await subSpot(uid)).toFixed()).toBe(sub0.minus('1.5').toFixed());
  }, 90_000);

  it("sub to sub: one sub-account's spot to another's, once", async () => {
    const [a, b] = subs;
    const [a0, b0, main0] = [await subSpot(a!), await subSpot(b!), await mainSpot()];
    await newTransfer('Sub-account → sub-account');
    const form = page.getByRole('form', { name: /New transfer/ });
    await form.getByLabel('From sub-account uid').fill(a!);
    await form.getByLabel('To sub-account uid').fill(b!);
    await form.getByLabel('Amount').fill('3');
    await reviewSignAndWait('sub_to_sub_transfer');
    expect((await subSpot(a!)).toFixed()).toBe(a0.minus(3).toFixed());
    expect((await subSpot(b!)).toFixed()).toBe(b0.plus(3).toFixed());
    expect((await mainSpot()).toFixed()).toBe(main0.toFixed());
  }, 90_000);

  it("within a sub-account, signed by its own key: its spot to its futures, once; the main account's money stays", async () => {
    const uid = subs[1]!;
    const [spot0, fut0, main0, mainFut0] = [await subSpot(uid), await subFutures(uid), await mainSpot(), await mainFutures()];
    await newTransfer('Within a sub-account (its key)');
    const form = page.getByRole('form', { name: /New transfer/ });
    await form.getByLabel('Sub-account (signs with its own key)').selectOption(uid);
    await form.getByLabel('Amount').fill('2.125');
    await expect
      .poll(() => form.getByTestId('draw-balance').textContent())
      .toMatch(new RegExp(`sub-account ${uid}'s spot account: .* USDT available`));
    await page.screenshot({ path: join(SHOTS, 'transfer-form.png') });
    await page.getByRole('button', { name: 'Review' }).click();
    await expect.poll(() => page.getByRole('region', { name: 'Review' }).textContent()).toContain(`sub-account ${uid}'s own key`);
    await page.getByRole('button', { name: 'Edit' }).click();
    // What the operator signs names the key that will sign the request.
    const v = await reviewSignAndWait('sub_own_transfer', undefined, `Signed bysub-account ${uid}'s own key`);
    expect(v.signer).toBe(uid);
    expect(v.body).toEqual({ currency: 'USDT', from: 'spot', to: 'futures', amount: '2.125', settle: 'usdt' });
    await expect
      .poll(async () => [(await subSpot(uid)).toFixed(), (await subFutures(uid)).toFixed()])
      .toEqual([spot0.minus('2.125').toFixed(), fut0.plus('2.125').toFixed()]);
    expect((await mainSpot()).toFixed()).toBe(main0.toFixed());
    expect((await mainFutures()).toFixed()).toBe(mainFut0.toFixed());
  }, 90_000);
});
