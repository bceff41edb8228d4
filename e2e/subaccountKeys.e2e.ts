import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openOperatorDesk, signTicket, waitingTicket, type OperatorDesk } from './confirmPage.ts';
import type { DeskUnderTest } from './harness.ts';
import { sandboxGet } from './sandboxApi.ts';

// A new sub-account, its first key, and disabling that key, as an operator clicks them on the
// Sub-accounts pages; each is signed in the confirmation page and checked in the Sandbox's own lists.

const PASS = 'alice passphrase 1';
type Sub = { login_name: string; user_id: number; remark?: string };
type Key = { key: string; name?: string | null };

describe('Sub-account creation and its keys, from the desk', () => {
  let opened: OperatorDesk | undefined;
  let desk: DeskUnderTest;
  let page: Page;
  let confirm: Page;
  let uid = '';
  const get = <T>(path: string, query = '') => sandboxGet<T>(desk.sandbox.credentialsPath, path, query);
  const keysAt = (id: string) => get<Key[]>(`/sub_accounts/${id}/keys`);

  beforeAll(async () => {
    opened = await openOperatorDesk({ name: 'Alice', passphrase: PASS });
    ({ desk, page, confirm } = opened);
  }, 60_000);
  afterAll(() => opened?.stop());

  it('creates a sub-account and its first key: both listed by the Sandbox', async () => {
    await page.getByRole('link', { name: 'Sub-accounts' }).click();
    await page.getByRole('button', { name: 'New sub-account' }).click();
    const form = page.getByRole('form', { name: 'New sub-account' });
    await form.getByLabel('Login name').fill('desk_e2e_new');
    await form.getByLabel('Remark').fill('made in the browser test');
    await form.getByRole('button', { name: 'Send for signing' }).click();
    expect(await signTicket(await waitingTicket(confirm), 'Alice', PASS)).toMatch(/^Signed: /);
    let made: Sub | undefined;
    await expect
      .poll(
        async () => {
          made = (await get<Sub[]>('/sub_accounts')).find((s) => s.login_name === 'desk_e2e_new');
          return !!made;
        },
        { timeout: 30_000 },
      )
      .toBe(true);
    uid = String(made!.user_id);
    expect(made!.remark).toBe('made in the browser test');

    const first = page.getByRole('form', { name: `Its first key (optional): sub-account ${uid}` });
    await first.getByLabel('Key label').fill('e2e-key');
    await first.getByRole('button', { name: 'Send for signing' }).click();
    expect(await signTicket(await waitingTicket(confirm), 'Alice', PASS)).toMatch(/^Signed: /);
    await expect
      .poll(async () => (await keysAt(uid)).filter((k) => (k.name ?? '').includes('e2e-key')).length, { timeout: 30_000 })
      .toBe(1);
  }, 90_000);

  it("disables that key from the sub-account's page: the Sandbox lists it no more", async () => {
    const [key] = (await keysAt(uid)).filter((k) => (k.name ?? '').includes('e2e-key'));
    await page.evaluate((h) => ((globalThis as unknown as { location: { hash: string } }).location.hash = h), `#/sub-accounts/${uid}`);
    const row = page.getByTestId('sub-account-keys').getByRole('row').filter({ hasText: 'the desk signs with it' });
    await row.getByRole('button', { name: /^Disable key / }).click();
    expect(await signTicket(await waitingTicket(confirm), 'Alice', PASS)).toMatch(/^Signed: /);
    await expect.poll(async () => (await keysAt(uid)).some((k) => k.key === key!.key), { timeout: 30_000 }).toBe(false);
  }, 90_000);
});
