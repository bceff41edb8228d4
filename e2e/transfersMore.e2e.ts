import Decimal from 'decimal.js';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openOperatorDesk, signTicket, waitingTicket, type OperatorDesk } from './confirmPage.ts';
import type { DeskUnderTest } from './harness.ts';
import { sandboxAdmin, sandboxGet } from './sandboxApi.ts';

// Money leaving by the Withdrawals page's other doors, as an operator types it: a UID transfer to
// another main account, and a withdrawal on a chain that needs a memo, the memo typed in the form. Each
// is checked at the Sandbox's own records, read with the test's own signer.

const PASS = 'alice passphrase 1';
type Push = { id: number; receive_uid: number; currency: string; amount: string; status: string };
type Withdrawal = { withdraw_order_id: string; address: string; memo: string; amount: string; chain: string };

describe('UID transfer and a withdrawal with a memo, from the desk', () => {
  let opened: OperatorDesk | undefined;
  let desk: DeskUnderTest;
  let page: Page;
  let confirm: Page;
  const get = <T>(path: string, query = '') => sandboxGet<T>(desk.sandbox.credentialsPath, path, query);
  const window = () => {
    const now = Math.floor(Date.now() / 1000);
    return `from=${now - 3600}&to=${now + 60}&limit=1000`;
  };
  const mainSpot = async () =>
    new Decimal(
      (await get<{ currency: string; available: string }[]>('/spot/accounts', 'currency=USDT')).find((r) => r.currency === 'USDT')
        ?.available ?? '0',
    );

  /** Review, send for signing and sign as Alice; waits until the form says the exchange took the write. */
  async function reviewAndSign(): Promise<void> {
    await page.getByRole('button', { name: 'Review' }).click();
    await page.getByTestId('verdict').waitFor();
    await page.getByRole('button', { name: 'Send for signing' }).click();
    await page.getByTestId('awaiting-signature').waitFor();
    expect(await signTicket(await waitingTicket(confirm), 'Alice', PASS)).toMatch(/^Signed: /);
    await expect
      .poll(() => page.getByTestId('request-outcome').getAttribute('data-state'), { timeout: 30_000 })
      .toMatch(/^(accepted|done)$/);
  }

  beforeAll(async () => {
    opened = await openOperatorDesk({ name: 'Alice', passphrase: PASS });
    ({ desk, page, confirm } = opened);
  }, 60_000);
  afterAll(() => opened?.stop());

  it('a withdrawal on a chain that needs a memo: the typed memo reaches the Sandbox record', async () => {
    const address = 'UQBvW8Z5huBkMJYdnfAEM5JqTNkuWX3diqYENkWsIL0XggGG';
    const memo = '884213';
    await page.getByRole('link', { name: 'Withdrawals' }).click();
    await page.getByRole('button', { name: 'New withdrawal' }).click();
    const form = page.getByRole('form', { name: 'New withdrawal' });
    await form.getByLabel('Currency').selectOption('USDT');
    await form.getByLabel('Chain').selectOption('TON');
    await form.getByLabel('A new address').check();
    await form.getByLabel('New address', { exact: true }).fill(address);
    await form.getByText('This chain needs a memo or tag.').waitFor();
    await form.getByLabel('Memo or tag').fill(memo);
    // A new address is blocked by the default policy until the address book holds it, signed.
    await form.getByRole('button', { name: 'Add to address book' }).click();
    expect(await signTicket(await waitingTicket(confirm, /address book/i), 'Alice', PASS)).toMatch(/^Signed: /);
    const entry = form.getByRole('radio', { name: new RegExp(`address book ${address}`) });
    await expect
      .poll(async () => (await entry.count()) > 0 && /signed by Alice/.test((await entry.locator('..').textContent()) ?? ''), {
        timeout: 30_000,
      })
      .toBe(true);
    await entry.check();
    await form.getByLabel('Amount').fill('30');
    await page.getByTestId('arrives').waitFor();
    await reviewAndSign();
    const sent = async () => (await get<Withdrawal[]>('/wallet/withdrawals', window())).filter((w) => w.address === address);
    await expect.poll(async () => (await sent()).length, { timeout: 30_000 }).toBe(1);
    expect((await sent())[0]).toMatchObject({ chain: 'TON', memo, amount: '30' });
  }, 120_000);
  it("a UID transfer to another main account: one push record, the receiver's money, once", async () => {
    const other = await sandboxAdmin<{ main: { uid: string } }>(desk.sandbox.credentialsPath, 'POST', '/accounts', { world: 'demo' });
    // The default policy blocks every UID transfer (no list names a user id): an admin removes that rule first.
    await page.getByRole('link', { name: 'Approvals' }).click();
    await page.getByText('Propose a new policy').click();
    const editor = page.getByRole('form', { name: 'Policy editor' });
    await editor.getByRole('button', { name: 'Remove rule unknown-destination' }).click();
    await editor.getByRole('button', { name: 'Propose this policy' }).click();
    expect(await signTicket(await waitingTicket(confirm, /Change the policy/), 'Alice', PASS)).toMatch(/Signed/);
    await expect.poll(() => page.getByText(/^unknown-destination: /).count(), { timeout: 30_000 }).toBe(0);
    const main0 = await mainSpot();
    await page.getByRole('link', { name: 'Withdrawals' }).click();
    await page.getByRole('button', { name: 'New UID transfer' }).click();
    const form = page.getByRole('form', { name: 'New UID transfer' });
    await form.getByLabel("Receiver's user id").fill(other.main.uid);
    await form.getByLabel('Currency').fill('usdt');
    await form.getByLabel('Amount').fill('4.75');
    await reviewAndSign();
    const pushes = async () => (await get<Push[]>('/wallet/push', window())).filter((p) => String(p.receive_uid) === other.main.uid);
    await expect.poll(async () => (await pushes()).length, { timeout: 30_000 }).toBe(1);
    await expect.poll(() => page.getByTestId('request-outcome').getAttribute('data-state'), { timeout: 30_000 }).toBe('done');
    expect((await pushes())[0]).toMatchObject({ currency: 'USDT', amount: '4.75', status: 'RECEIVED' });
    expect((await mainSpot()).toFixed()).toBe(main0.minus('4.75').toFixed());
  }, 90_000);
});
